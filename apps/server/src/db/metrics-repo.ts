// The counts behind a project's overview (GET /internal/metrics): each one query over an index that starts with
// the project id (users by sign-up time, teams by creation, sessions by expiry).
import { and, eq, gt, gte, lt, not, sql } from "drizzle-orm";
import type { Db } from "./client.ts";
import { sessions, teams, users } from "./schema.ts";

export function createMetricsRepo(db: Db) {
  return {
    /** Full and anonymous users in one pass over the project's users. */
    async userCounts(projectId: string): Promise<{ users: number; anonymous: number }> {
      const [row] = await db
        .select({
          users: sql<number>`(count(*) filter (where not ${users.isAnonymous}))::int`,
          anonymous: sql<number>`(count(*) filter (where ${users.isAnonymous}))::int`,
        })
        .from(users)
        .where(eq(users.projectId, projectId));
      return { users: row?.users ?? 0, anonymous: row?.anonymous ?? 0 };
    },

    async teamCount(projectId: string): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(teams)
        .where(eq(teams.projectId, projectId));
      return row?.n ?? 0;
    },

    /** Sessions that have not expired at `now`. Revoking a session deletes it, so no other test is needed. */
    async activeSessionCount(projectId: string, now: Date): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(sessions)
        .where(and(eq(sessions.projectId, projectId), gt(sessions.expiresAt, now)));
      return row?.n ?? 0;
    },

    /** Sign-ups of full users in [from, to), per UTC day (`YYYY-MM-DD`); days without any are absent. */
    async signUpsByDay(projectId: string, from: Date, to: Date): Promise<{ date: string; count: number }[]> {
      const day = sql<string>`to_char(${users.signedUpAt} at time zone 'UTC', 'YYYY-MM-DD')`;
      return db
        .select({ date: day, count: sql<number>`count(*)::int` })
        .from(users)
        .where(
          and(
            eq(users.projectId, projectId),
            gte(users.signedUpAt, from),
            lt(users.signedUpAt, to),
            not(users.isAnonymous),
          ),
        )
        .groupBy(day);
    },
  };
}

export type MetricsRepo = ReturnType<typeof createMetricsRepo>;
