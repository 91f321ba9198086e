// The counts behind a project's overview (GET /internal/metrics): each one query over an index that starts with
// the project id (users by sign-up time or last activity, teams by creation, sessions by expiry, OAuth accounts).
import { and, desc, eq, gt, gte, lt, not, sql } from "drizzle-orm";
import type { Db } from "./client.ts";
import { oauthAccounts, sessions, teams, users } from "./schema.ts";

const hasPasskey = sql`exists (select 1 from passkeys p where p.user_id = ${users.id})`;
const hasOAuth = sql`exists (select 1 from oauth_accounts o where o.user_id = ${users.id})`;
/** A count of the project's full (not anonymous) users matching `condition`. */
const fullUsers = (condition: ReturnType<typeof sql>) =>
  sql<number>`(count(*) filter (where not ${users.isAnonymous} and ${condition}))::int`;

export function createMetricsRepo(db: Db) {
  return {
    /** Full and anonymous users, and full users by the ways they can sign in, in one pass over the project's users. */
    async userCounts(projectId: string) {
      const [row] = await db
        .select({
          users: fullUsers(sql`true`),
          anonymous: sql<number>`(count(*) filter (where ${users.isAnonymous}))::int`,
          password: fullUsers(sql`${users.passwordHash} is not null`),
          otp: fullUsers(sql`${users.otpAuthEnabled}`),
          passkey: fullUsers(hasPasskey),
          none: fullUsers(
            sql`${users.passwordHash} is null and not ${users.otpAuthEnabled} and not ${hasPasskey} and not ${hasOAuth}`,
          ),
        })
        .from(users)
        .where(eq(users.projectId, projectId));
      return row ?? { users: 0, anonymous: 0, password: 0, otp: 0, passkey: 0, none: 0 };
    },

    /** Full users last active at or after `month`, and of those at or after `day` (an index range, not a scan). */
    async activeUsers(
      projectId: string,
      day: Date,
      month: Date,
    ): Promise<{ daily: number; monthly: number }> {
      const [row] = await db
        .select({
          daily: sql<number>`(count(*) filter (where ${users.lastActiveAt} >= ${day.toISOString()}::timestamptz))::int`,
          monthly: sql<number>`count(*)::int`,
        })
        .from(users)
        .where(and(eq(users.projectId, projectId), gte(users.lastActiveAt, month), not(users.isAnonymous)));
      return { daily: row?.daily ?? 0, monthly: row?.monthly ?? 0 };
    },

    /** Users with an account at each OAuth provider, most first (then by provider id). */
    async oauthUsers(projectId: string): Promise<{ provider_id: string; users: number }[]> {
      const count = sql<number>`count(distinct ${oauthAccounts.userId})::int`;
      return db
        .select({ provider_id: oauthAccounts.providerId, users: count })
        .from(oauthAccounts)
        .where(eq(oauthAccounts.projectId, projectId))
        .groupBy(oauthAccounts.providerId)
        .orderBy(desc(count), oauthAccounts.providerId);
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
