// Teams, memberships, direct permission grants and permission definitions: the rows of WIRE.md §4.10-4.12 and §6.
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "./client.ts";
import {
  permissionDefinitions,
  teamMembers,
  teamPermissionGrants,
  teams,
  users,
  verificationCodes,
} from "./schema.ts";
import { toUserRecord, USER_COLUMNS, USER_JOINS, type UserRecord } from "./users-repo.ts";

export type TeamRow = typeof teams.$inferSelect;
export type MemberRow = typeof teamMembers.$inferSelect;
export type GrantRow = typeof teamPermissionGrants.$inferSelect;
export type DefinitionRow = typeof permissionDefinitions.$inferSelect;
/** Team definitions apply inside a team; project ones to a user outside any team. */
export type DefinitionScope = DefinitionRow["scope"];
export type GrantKey = { teamId: string; userId: string; permissionId: string };
/** A membership with its user, for member profiles (the per-team name and image fall back to the user's own). */
export type MemberProfileRow = { member: MemberRow; user: UserRecord };

export function createTeamsRepo(db: Db) {
  return {
    async findTeam(projectId: string, teamId: string, executor: Db = db): Promise<TeamRow | undefined> {
      const [row] = await executor
        .select()
        .from(teams)
        .where(and(eq(teams.projectId, projectId), eq(teams.id, teamId)));
      return row;
    },

    /** Every team of the project, or of one user, oldest first. */
    listTeams(projectId: string, userId?: string): Promise<TeamRow[]> {
      const base = db.select({ team: teams }).from(teams);
      const query = userId
        ? base
            .innerJoin(teamMembers, and(eq(teamMembers.teamId, teams.id), eq(teamMembers.userId, userId)))
            .where(eq(teams.projectId, projectId))
        : base.where(eq(teams.projectId, projectId));
      return query.orderBy(asc(teams.createdAt), asc(teams.id)).then((rows) => rows.map((r) => r.team));
    },

    async insertTeam(tx: Db, row: typeof teams.$inferInsert): Promise<TeamRow> {
      const [created] = await tx.insert(teams).values(row).returning();
      if (!created) throw new Error("Team insert returned no row");
      return created;
    },

    async updateTeam(tx: Db, teamId: string, changes: Partial<TeamRow>): Promise<TeamRow | undefined> {
      const [updated] = await tx.update(teams).set(changes).where(eq(teams.id, teamId)).returning();
      return updated;
    },

    /**
     * Members and grants go with the team (cascades); members' selection is cleared first. Invitations are
     * verification codes that name the team in their data, so they are deleted here, in the same transaction.
     */
    async deleteTeam(tx: Db, teamId: string): Promise<void> {
      await tx.update(users).set({ selectedTeamId: null }).where(eq(users.selectedTeamId, teamId));
      await tx
        .delete(verificationCodes)
        .where(
          and(
            eq(verificationCodes.purpose, "team_invitation"),
            sql`${verificationCodes.data}->>'team_id' = ${teamId}`,
          ),
        );
      await tx.delete(teams).where(eq(teams.id, teamId));
    },

    async findMember(teamId: string, userId: string, executor: Db = db): Promise<MemberRow | undefined> {
      const [row] = await executor
        .select()
        .from(teamMembers)
        .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)));
      return row;
    },

    listMembers(teamId: string): Promise<MemberRow[]> {
      return db
        .select()
        .from(teamMembers)
        .where(eq(teamMembers.teamId, teamId))
        .orderBy(asc(teamMembers.createdAt), asc(teamMembers.userId));
    },

    /** Memberships with their users, filtered by team and/or user, in the order members joined. */
    async listMemberProfiles(
      projectId: string,
      filter: { teamId?: string; userId?: string },
      executor: Db = db,
    ): Promise<MemberProfileRow[]> {
      const rows = await executor
        .select({ member: teamMembers, ...USER_COLUMNS })
        .from(teamMembers)
        .innerJoin(users, eq(users.id, teamMembers.userId))
        .leftJoin(...USER_JOINS.primary)
        .leftJoin(...USER_JOINS.team)
        .where(
          and(
            eq(teamMembers.projectId, projectId),
            filter.teamId ? eq(teamMembers.teamId, filter.teamId) : undefined,
            filter.userId ? eq(teamMembers.userId, filter.userId) : undefined,
          ),
        )
        .orderBy(asc(teamMembers.createdAt), asc(teamMembers.teamId), asc(teamMembers.userId));
      return rows.map((row) => ({ member: row.member, user: toUserRecord(row) }));
    },

    /** The teams a user belongs to (for user deletion's events). */
    async teamIdsOf(executor: Db, userId: string): Promise<string[]> {
      const rows = await executor
        .select({ teamId: teamMembers.teamId })
        .from(teamMembers)
        .where(eq(teamMembers.userId, userId))
        .orderBy(asc(teamMembers.createdAt));
      return rows.map((r) => r.teamId);
    },

    /** Whether the team has any member (the primary key's index answers it). */
    async hasMembers(executor: Db, teamId: string): Promise<boolean> {
      const rows = await executor
        .select({ userId: teamMembers.userId })
        .from(teamMembers)
        .where(eq(teamMembers.teamId, teamId))
        .limit(1);
      return rows.length > 0;
    },

    /**
     * Holds the team's membership lock until the transaction ends: transactions that must decide from the team's
     * members (the internal project's first operator) take their turns instead of deciding from the same view.
     */
    async lockMemberships(tx: Db, teamId: string): Promise<void> {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`team-members:${teamId}`}, 0))`);
    },

    /** Inserts the membership; false when it already existed. */
    async insertMember(tx: Db, row: typeof teamMembers.$inferInsert): Promise<boolean> {
      const inserted = await tx.insert(teamMembers).values(row).onConflictDoNothing().returning();
      return inserted.length > 0;
    },

    async updateMember(tx: Db, teamId: string, userId: string, changes: Partial<MemberRow>): Promise<void> {
      await tx
        .update(teamMembers)
        .set(changes)
        .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)));
    },

    /** Removes the membership (its grants cascade) and clears the team as the user's selection. */
    async deleteMember(tx: Db, teamId: string, userId: string): Promise<boolean> {
      const deleted = await tx
        .delete(teamMembers)
        .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
        .returning();
      await tx
        .update(users)
        .set({ selectedTeamId: null })
        .where(and(eq(users.id, userId), eq(users.selectedTeamId, teamId)));
      return deleted.length > 0;
    },

    /**
     * One member's grants of these permissions, in one statement: the system ones (`system` true) always, the others
     * only where the project defines them in team scope (unknown ids are skipped), each unless it exists. Returns the
     * new ones in the order given. Sign-up's personal team goes through here: looking the definitions up first was a
     * statement of its own.
     */
    async insertDefinedGrants(
      tx: Db,
      projectId: string,
      member: { teamId: string; userId: string },
      permissions: { id: string; system: boolean }[],
      createdAt: Date,
    ): Promise<GrantKey[]> {
      if (permissions.length === 0) return [];
      const ids = permissions.map((p) => p.id);
      const result = await tx.execute(sql`
        insert into ${teamPermissionGrants} (project_id, team_id, user_id, permission_id, created_at)
        select ${projectId}, ${member.teamId}::uuid, ${member.userId}::uuid, wanted.id, ${createdAt.toISOString()}::timestamptz
        from unnest(${sql.param(ids)}::text[], ${sql.param(permissions.map((p) => p.system))}::boolean[])
          with ordinality as wanted(id, system, n)
        where wanted.system or exists (
          select 1 from ${permissionDefinitions} d
          where d.project_id = ${projectId} and d.scope = 'team' and d.id = wanted.id
        )
        order by wanted.n
        on conflict do nothing
        returning permission_id`);
      const inserted = new Set(
        (result as unknown as { rows: { permission_id: string }[] }).rows.map((r) => r.permission_id),
      );
      return ids.filter((id) => inserted.has(id)).map((permissionId) => ({ ...member, permissionId }));
    },

    /** Inserts the grants that do not exist yet; returns the ones that were new. */
    async insertGrants(tx: Db, projectId: string, grants: GrantKey[], createdAt: Date): Promise<GrantKey[]> {
      if (grants.length === 0) return [];
      return tx
        .insert(teamPermissionGrants)
        .values(grants.map((g) => ({ ...g, projectId, createdAt })))
        .onConflictDoNothing()
        .returning({
          teamId: teamPermissionGrants.teamId,
          userId: teamPermissionGrants.userId,
          permissionId: teamPermissionGrants.permissionId,
        });
    },

    async deleteGrant(tx: Db, grant: GrantKey): Promise<boolean> {
      const deleted = await tx
        .delete(teamPermissionGrants)
        .where(
          and(
            eq(teamPermissionGrants.teamId, grant.teamId),
            eq(teamPermissionGrants.userId, grant.userId),
            eq(teamPermissionGrants.permissionId, grant.permissionId),
          ),
        )
        .returning();
      return deleted.length > 0;
    },

    /** Direct grants, filtered by team and/or user (unordered: the database's collation is not the wire's order). */
    listGrants(projectId: string, filter: { teamId?: string; userId?: string }): Promise<GrantKey[]> {
      return db
        .select({
          teamId: teamPermissionGrants.teamId,
          userId: teamPermissionGrants.userId,
          permissionId: teamPermissionGrants.permissionId,
        })
        .from(teamPermissionGrants)
        .where(
          and(
            eq(teamPermissionGrants.projectId, projectId),
            filter.teamId ? eq(teamPermissionGrants.teamId, filter.teamId) : undefined,
            filter.userId ? eq(teamPermissionGrants.userId, filter.userId) : undefined,
          ),
        );
    },

    /** A membership with its direct permission ids, in one query; undefined when not a member. */
    async membership(teamId: string, userId: string): Promise<{ permissionIds: string[] } | undefined> {
      const [row] = await db
        .select({
          permissionIds: sql<
            string[]
          >`coalesce(array_agg(${teamPermissionGrants.permissionId}) filter (where ${teamPermissionGrants.permissionId} is not null), '{}')`,
        })
        .from(teamMembers)
        .leftJoin(
          teamPermissionGrants,
          and(
            eq(teamPermissionGrants.teamId, teamMembers.teamId),
            eq(teamPermissionGrants.userId, teamMembers.userId),
          ),
        )
        .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
        .groupBy(teamMembers.teamId, teamMembers.userId);
      return row;
    },

    /** The definitions of one scope (team ones unless told); ids are unique across scopes. */
    listDefinitions(
      projectId: string,
      executor: Db = db,
      scope: DefinitionScope = "team",
    ): Promise<DefinitionRow[]> {
      return executor
        .select()
        .from(permissionDefinitions)
        .where(and(eq(permissionDefinitions.projectId, projectId), eq(permissionDefinitions.scope, scope)))
        .orderBy(asc(permissionDefinitions.id));
    },

    async insertDefinitions(tx: Db, rows: (typeof permissionDefinitions.$inferInsert)[]): Promise<void> {
      if (rows.length > 0) await tx.insert(permissionDefinitions).values(rows).onConflictDoNothing();
    },

    /**
     * The project's definitions of every scope, locked until the transaction ends: definition changes of one project run one at
     * a time, each seeing the others' result.
     */
    lockDefinitions(tx: Db, projectId: string): Promise<DefinitionRow[]> {
      return tx
        .select()
        .from(permissionDefinitions)
        .where(eq(permissionDefinitions.projectId, projectId))
        .orderBy(asc(permissionDefinitions.id))
        .for("update");
    },

    /** Inserts one definition; false when the id is taken. */
    async insertDefinition(tx: Db, row: typeof permissionDefinitions.$inferInsert): Promise<boolean> {
      const inserted = await tx.insert(permissionDefinitions).values(row).onConflictDoNothing().returning();
      return inserted.length > 0;
    },

    /** Changes a definition (a new `id` renames it); undefined when there is no such definition. */
    async updateDefinition(
      tx: Db,
      projectId: string,
      id: string,
      changes: Partial<Pick<DefinitionRow, "id" | "description" | "containedPermissionIds">>,
    ): Promise<DefinitionRow | undefined> {
      const [row] = await tx
        .update(permissionDefinitions)
        .set(changes)
        .where(and(eq(permissionDefinitions.projectId, projectId), eq(permissionDefinitions.id, id)))
        .returning();
      return row;
    },

    async deleteDefinition(tx: Db, projectId: string, id: string): Promise<void> {
      await tx
        .delete(permissionDefinitions)
        .where(and(eq(permissionDefinitions.projectId, projectId), eq(permissionDefinitions.id, id)));
    },

    /** Moves every direct grant of a permission to another id (a definition's rename). */
    async renameGrants(tx: Db, projectId: string, from: string, to: string): Promise<void> {
      await tx
        .update(teamPermissionGrants)
        .set({ permissionId: to })
        .where(
          and(eq(teamPermissionGrants.projectId, projectId), eq(teamPermissionGrants.permissionId, from)),
        );
    },

    /** Deletes every direct grant of a permission (a definition's deletion; no events). */
    async deleteGrantsOf(tx: Db, projectId: string, permissionId: string): Promise<void> {
      await tx
        .delete(teamPermissionGrants)
        .where(
          and(
            eq(teamPermissionGrants.projectId, projectId),
            eq(teamPermissionGrants.permissionId, permissionId),
          ),
        );
    },

    /** Which of these permission ids the project defines in a scope (for grants: unknown ids are refused or skipped). */
    async existingDefinitionIds(
      executor: Db,
      projectId: string,
      ids: string[],
      scope: DefinitionScope = "team",
    ): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await executor
        .select({ id: permissionDefinitions.id })
        .from(permissionDefinitions)
        .where(
          and(
            eq(permissionDefinitions.projectId, projectId),
            eq(permissionDefinitions.scope, scope),
            inArray(permissionDefinitions.id, ids),
          ),
        );
      return rows.map((r) => r.id);
    },

    /** The scope of a definition, whichever it is; undefined when the project has no such definition. */
    async definitionScope(executor: Db, projectId: string, id: string): Promise<DefinitionScope | undefined> {
      const [row] = await executor
        .select({ scope: permissionDefinitions.scope })
        .from(permissionDefinitions)
        .where(and(eq(permissionDefinitions.projectId, projectId), eq(permissionDefinitions.id, id)));
      return row?.scope;
    },
  };
}

export type TeamsRepo = ReturnType<typeof createTeamsRepo>;
