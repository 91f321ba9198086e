// The one query behind every authenticated request: the project, whether the presented key is valid for it, and
// the user of the access token's session. One round trip instead of three on the hottest path of the server.
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { KeyColumn } from "./api-keys-repo.ts";
import type { Db } from "./client.ts";
import { apiKeySets, projects, sessions, users } from "./schema.ts";
import { toUserRecord, USER_COLUMNS, USER_JOINS, type UserRecord, type UserRow } from "./users-repo.ts";

const placeholder = (name: string) => sql.placeholder(name);

export type RequestLookup = {
  project: typeof projects.$inferSelect;
  /** undefined when no key was presented. */
  keyValid: boolean | undefined;
  /** The key set the presented key belongs to (the audit log names it as the actor). */
  keySetId: string | undefined;
  /** The session named by the token, with its user; undefined when there is no such session. */
  session: { id: string; user: UserRecord; expiresAt: Date } | undefined;
};

export function createRequestRepo(db: Db) {
  /** The session is matched by id (an access token's) or by refresh-token hash (the token endpoint's). */
  const prepare = (column: KeyColumn | undefined, sessionBy: "id" | "refresh") => {
    const keyJoin = column
      ? and(
          eq(apiKeySets.projectId, projects.id),
          eq(apiKeySets[column], placeholder("hash")),
          isNull(apiKeySets.manuallyRevokedAt),
          gt(apiKeySets.expiresAt, placeholder("now")),
        )
      : sql`false`;
    return db
      .select({
        project: projects,
        keySetId: apiKeySets.id,
        ...USER_COLUMNS,
        sessionId: sessions.id,
        sessionExpiresAt: sessions.expiresAt,
      })
      .from(projects)
      .leftJoin(apiKeySets, keyJoin)
      .leftJoin(
        sessions,
        and(
          sessionBy === "id"
            ? eq(sessions.id, placeholder("sessionId"))
            : eq(sessions.refreshTokenHash, placeholder("refreshHash")),
          eq(sessions.projectId, projects.id),
        ),
      )
      .leftJoin(users, eq(users.id, sessions.userId))
      .leftJoin(...USER_JOINS.primary)
      .leftJoin(...USER_JOINS.team)
      .where(eq(projects.id, placeholder("projectId")))
      .limit(1)
      .prepare(`request_lookup_${column ?? "nokey"}_${sessionBy}`);
  };
  // Prepared on first use: one statement per key column and way of finding the session.
  const statements = new Map<string, ReturnType<typeof prepare>>();
  const statement = (column: KeyColumn | undefined, sessionBy: "id" | "refresh") => {
    const name = `${column ?? "none"}:${sessionBy}`;
    let prepared = statements.get(name);
    if (!prepared) {
      prepared = prepare(column, sessionBy);
      statements.set(name, prepared);
    }
    return prepared;
  };
  // A session id that matches nothing, for requests without a token (a uuid column cannot compare with null here).
  const NO_SESSION = "00000000-0000-0000-0000-000000000000";

  return {
    async lookup(input: {
      projectId: string;
      key?: { column: KeyColumn; hash: string };
      sessionId?: string;
      /** Instead of `sessionId`: find the session by the hash of its refresh token. */
      refreshHash?: string;
      now: Date;
    }): Promise<RequestLookup | undefined> {
      const sessionBy = input.refreshHash === undefined ? "id" : "refresh";
      const [row] = await statement(input.key?.column, sessionBy).execute({
        projectId: input.projectId,
        hash: input.key?.hash ?? "",
        now: input.now.toISOString(),
        sessionId: input.sessionId ?? NO_SESSION,
        refreshHash: input.refreshHash ?? "",
      });
      if (!row) return undefined;
      // Left-joined from the session: null when the token named no live session.
      const user = row.user as UserRow | null;
      return {
        project: row.project,
        keyValid: input.key ? row.keySetId !== null : undefined,
        keySetId: row.keySetId ?? undefined,
        session:
          user && row.sessionId && row.sessionExpiresAt
            ? { id: row.sessionId, user: toUserRecord({ ...row, user }), expiresAt: row.sessionExpiresAt }
            : undefined,
      };
    },
  };
}

export type RequestRepo = ReturnType<typeof createRequestRepo>;
