// The SCIM tables: a team's bearer tokens (by hash), the users its identity provider provisioned, its groups and their
// members. Every read is scoped to one team: a token of team A never sees team B's resources.
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { scimGroupMembers, scimGroups, scimTokens, scimUsers } from "../../db/schema.ts";

export type ScimTokenRow = typeof scimTokens.$inferSelect;
export type ScimUserRow = typeof scimUsers.$inferSelect;
export type ScimGroupRow = typeof scimGroups.$inferSelect;

export function createScimRepo() {
  return {
    async insertToken(db: Db, row: typeof scimTokens.$inferInsert): Promise<ScimTokenRow> {
      const [inserted] = await db.insert(scimTokens).values(row).returning();
      if (!inserted) throw new Error("insert returned no row");
      return inserted;
    },

    async listTokens(db: Db, projectId: string, teamId: string): Promise<ScimTokenRow[]> {
      return db
        .select()
        .from(scimTokens)
        .where(and(eq(scimTokens.projectId, projectId), eq(scimTokens.teamId, teamId)))
        .orderBy(asc(scimTokens.createdAt), asc(scimTokens.id));
    },

    async deleteToken(db: Db, projectId: string, teamId: string, id: string): Promise<boolean> {
      const deleted = await db
        .delete(scimTokens)
        .where(and(eq(scimTokens.projectId, projectId), eq(scimTokens.teamId, teamId), eq(scimTokens.id, id)))
        .returning({ id: scimTokens.id });
      return deleted.length > 0;
    },

    async findTokenByHash(db: Db, tokenHash: string): Promise<ScimTokenRow | undefined> {
      const [row] = await db.select().from(scimTokens).where(eq(scimTokens.tokenHash, tokenHash));
      return row;
    },

    async touchToken(db: Db, id: string, at: Date): Promise<void> {
      await db.update(scimTokens).set({ lastUsedAt: at }).where(eq(scimTokens.id, id));
    },

    async listUsers(db: Db, teamId: string): Promise<ScimUserRow[]> {
      return db
        .select()
        .from(scimUsers)
        .where(eq(scimUsers.teamId, teamId))
        .orderBy(asc(scimUsers.createdAt), asc(scimUsers.userId));
    },

    async findUser(db: Db, teamId: string, userId: string): Promise<ScimUserRow | undefined> {
      const [row] = await db
        .select()
        .from(scimUsers)
        .where(and(eq(scimUsers.teamId, teamId), eq(scimUsers.userId, userId)));
      return row;
    },

    async findUserByName(db: Db, teamId: string, userName: string): Promise<ScimUserRow | undefined> {
      const [row] = await db
        .select()
        .from(scimUsers)
        .where(
          and(eq(scimUsers.teamId, teamId), sql`lower(${scimUsers.userName}) = ${userName.toLowerCase()}`),
        );
      return row;
    },

    async insertUser(db: Db, row: typeof scimUsers.$inferInsert): Promise<ScimUserRow> {
      const [inserted] = await db.insert(scimUsers).values(row).returning();
      if (!inserted) throw new Error("insert returned no row");
      return inserted;
    },

    async updateUser(
      db: Db,
      teamId: string,
      userId: string,
      changes: Partial<Pick<ScimUserRow, "userName" | "externalId" | "active" | "attributes" | "updatedAt">>,
    ): Promise<ScimUserRow | undefined> {
      const [row] = await db
        .update(scimUsers)
        .set(changes)
        .where(and(eq(scimUsers.teamId, teamId), eq(scimUsers.userId, userId)))
        .returning();
      return row;
    },

    async deleteUser(db: Db, teamId: string, userId: string): Promise<void> {
      await db.delete(scimUsers).where(and(eq(scimUsers.teamId, teamId), eq(scimUsers.userId, userId)));
    },

    async listGroups(db: Db, teamId: string): Promise<ScimGroupRow[]> {
      return db
        .select()
        .from(scimGroups)
        .where(eq(scimGroups.teamId, teamId))
        .orderBy(asc(scimGroups.createdAt), asc(scimGroups.id));
    },

    async findGroup(db: Db, teamId: string, id: string): Promise<ScimGroupRow | undefined> {
      const [row] = await db
        .select()
        .from(scimGroups)
        .where(and(eq(scimGroups.teamId, teamId), eq(scimGroups.id, id)));
      return row;
    },

    async insertGroup(db: Db, row: typeof scimGroups.$inferInsert): Promise<ScimGroupRow> {
      const [inserted] = await db.insert(scimGroups).values(row).returning();
      if (!inserted) throw new Error("insert returned no row");
      return inserted;
    },

    async updateGroup(
      db: Db,
      id: string,
      changes: Partial<Pick<ScimGroupRow, "displayName" | "externalId" | "updatedAt">>,
    ): Promise<void> {
      await db.update(scimGroups).set(changes).where(eq(scimGroups.id, id));
    },

    async deleteGroup(db: Db, id: string): Promise<void> {
      await db.delete(scimGroups).where(eq(scimGroups.id, id));
    },

    /** The members of the given groups, as (group, user) pairs. */
    async membersOf(db: Db, groupIds: string[]): Promise<{ groupId: string; userId: string }[]> {
      if (groupIds.length === 0) return [];
      return db
        .select({ groupId: scimGroupMembers.groupId, userId: scimGroupMembers.userId })
        .from(scimGroupMembers)
        .where(inArray(scimGroupMembers.groupId, groupIds));
    },

    /** The display names of the team's groups the user belongs to. */
    async groupNamesOf(db: Db, teamId: string, userId: string): Promise<string[]> {
      const rows = await db
        .select({ name: scimGroups.displayName })
        .from(scimGroupMembers)
        .innerJoin(scimGroups, eq(scimGroups.id, scimGroupMembers.groupId))
        .where(and(eq(scimGroups.teamId, teamId), eq(scimGroupMembers.userId, userId)));
      return rows.map((row) => row.name);
    },

    async removeMember(db: Db, groupId: string, userId: string): Promise<void> {
      await db
        .delete(scimGroupMembers)
        .where(and(eq(scimGroupMembers.groupId, groupId), eq(scimGroupMembers.userId, userId)));
    },

    async setMembers(db: Db, groupId: string, userIds: string[]): Promise<void> {
      await db.delete(scimGroupMembers).where(eq(scimGroupMembers.groupId, groupId));
      if (userIds.length > 0)
        await db.insert(scimGroupMembers).values(userIds.map((userId) => ({ groupId, userId })));
    },
  };
}

export type ScimRepo = ReturnType<typeof createScimRepo>;
