// Project rows: insert, read (by id, locked for an update, by owner), update, delete, and user counts for views.
import { and, count, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "./client.ts";
import { projects, teamMembers, users } from "./schema.ts";

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
    /** The row, locked until the transaction ends: concurrent changes of one project's settings queue up. */
    async lock(tx: Db, id: string): Promise<ProjectRow | undefined> {
      const [row] = await tx.select().from(projects).where(eq(projects.id, id)).for("update");
      return row;
    },
    /** Projects owned by the teams the user belongs to, oldest first. */
    async listOwnedBy(userId: string): Promise<ProjectRow[]> {
      const rows = await db
        .select({ project: projects })
        .from(projects)
        .innerJoin(teamMembers, eq(teamMembers.teamId, projects.ownerTeamId))
        .where(eq(teamMembers.userId, userId))
        .orderBy(projects.createdAt, projects.id);
      return rows.map((r) => r.project);
    },
    async insert(tx: Db, row: NewProjectRow): Promise<ProjectRow> {
      const [created] = await tx.insert(projects).values(row).returning();
      if (!created) throw new Error("Project insert returned no row");
      return created;
    },
    async update(tx: Db, id: string, changes: Partial<NewProjectRow>): Promise<ProjectRow> {
      const [updated] = await tx.update(projects).set(changes).where(eq(projects.id, id)).returning();
      if (!updated) throw new Error(`Project ${id} vanished during an update`);
      return updated;
    },
    async setOwnerTeam(tx: Db, id: string, teamId: string): Promise<void> {
      await tx.update(projects).set({ ownerTeamId: teamId }).where(eq(projects.id, id));
    },
    /** The internal project's first operator seat is taken, for good (schema.ts, `firstOperatorAt`). */
    async takeFirstOperatorSeat(tx: Db, id: string, at: Date): Promise<void> {
      await tx
        .update(projects)
        .set({ firstOperatorAt: at })
        .where(and(eq(projects.id, id), isNull(projects.firstOperatorAt)));
    },
    async updateConfig(tx: Db, id: string, config: ProjectRow["config"]): Promise<void> {
      await tx.update(projects).set({ config }).where(eq(projects.id, id));
    },
    /** Everything of the project goes with it: every project-owned table cascades on `project_id`. */
    async delete(id: string, executor: Db = db): Promise<boolean> {
      const deleted = await executor
        .delete(projects)
        .where(eq(projects.id, id))
        .returning({ id: projects.id });
      return deleted.length > 0;
    },
    /** Users per project, for the admin view; projects without users are absent. */
    async countUsers(projectIds: string[]): Promise<Map<string, number>> {
      if (projectIds.length === 0) return new Map();
      const rows = await db
        .select({ projectId: users.projectId, users: count() })
        .from(users)
        .where(inArray(users.projectId, projectIds))
        .groupBy(users.projectId);
      return new Map(rows.map((r) => [r.projectId, r.users]));
    },
  };
}

export type ProjectsRepo = ReturnType<typeof createProjectsRepo>;
