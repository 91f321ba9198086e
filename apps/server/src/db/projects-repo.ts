// Project rows: insert, read by id.
import { eq, sql } from "drizzle-orm";
import type { Db } from "./client.ts";
import { projects } from "./schema.ts";

export type ProjectRow = typeof projects.$inferSelect;
export type NewProjectRow = typeof projects.$inferInsert;

export function createProjectsRepo(db: Db) {
  // Prepared once: every API request reads its project.
  const byId = db
    .select()
    .from(projects)
    .where(eq(projects.id, sql.placeholder("id")))
    .prepare("project_by_id");
  return {
    /** Inside a transaction, pass it: the prepared statement runs on the pool. */
    async find(id: string, tx?: Db): Promise<ProjectRow | undefined> {
      const [row] = tx
        ? await tx.select().from(projects).where(eq(projects.id, id))
        : await byId.execute({ id });
      return row;
    },
    async insert(tx: Db, row: NewProjectRow): Promise<ProjectRow> {
      const [created] = await tx.insert(projects).values(row).returning();
      if (!created) throw new Error("Project insert returned no row");
      return created;
    },
    async setOwnerTeam(tx: Db, id: string, teamId: string): Promise<void> {
      await tx.update(projects).set({ ownerTeamId: teamId }).where(eq(projects.id, id));
    },
    async updateConfig(tx: Db, id: string, config: ProjectRow["config"]): Promise<void> {
      await tx.update(projects).set({ config }).where(eq(projects.id, id));
    },
  };
}

export type ProjectsRepo = ReturnType<typeof createProjectsRepo>;
