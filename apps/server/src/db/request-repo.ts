// The one query behind every authenticated request: the project, whether the presented key is valid for it, and
// the user of the access token's session. One round trip instead of three on the hottest path of the server.
// Each asks for what its request reads and no more: without a token no session is joined, and a refresh reads only
// what the new token's claims need (pg and drizzle spend per column of every answer).
import { and, eq, gt, isNull, type SQL, sql } from "drizzle-orm";
import type { KeyColumn } from "./api-keys-repo.ts";
import type { Db } from "./client.ts";
import { apiKeySets, projects, sessions, users } from "./schema.ts";
import {
  TOKEN_SUBJECT_COLUMNS,
  type TokenSubject,
  toUserRecord,
  USER_COLUMNS,
  USER_JOINS,
  type UserRecord,
  type UserRow,
} from "./users-repo.ts";

const placeholder = (name: string) => sql.placeholder(name);

export type Lookup<User> = {
  project: typeof projects.$inferSelect;
  /** undefined when no key was presented. */
  keyValid: boolean | undefined;
  /** The key set the presented key belongs to (the audit log names it as the actor). */
  keySetId: string | undefined;
  /** The session named by the token, with its user; undefined when there is no such session. */
  session: { id: string; user: User; expiresAt: Date } | undefined;
};
export type RequestLookup = Lookup<UserRecord>;

type KeyInput = { column: KeyColumn; hash: string };

export function createRequestRepo(db: Db) {
  const keyJoin = (column: KeyColumn | undefined): SQL | undefined =>
    column
      ? and(
          eq(apiKeySets.projectId, projects.id),
          eq(apiKeySets[column], placeholder("hash")),
          isNull(apiKeySets.manuallyRevokedAt),
          gt(apiKeySets.expiresAt, placeholder("now")),
        )
      : sql`false`;
  const byProject = eq(projects.id, placeholder("projectId"));
  const sessionOf = (match: SQL) => and(match, eq(sessions.projectId, projects.id));
  const session = { sessionId: sessions.id, sessionExpiresAt: sessions.expiresAt };

  /** One prepared statement per key column, made on first use. */
  const perKeyColumn = <T>(prepare: (column: KeyColumn | undefined, name: string) => T) => {
    const prepared = new Map<string, T>();
    return (column: KeyColumn | undefined) => {
      const name = column ?? "nokey";
      let statement = prepared.get(name);
      if (!statement) {
        statement = prepare(column, name);
        prepared.set(name, statement);
      }
      return statement;
    };
  };
  const projectOnly = perKeyColumn((column, name) =>
    db
      .select({ project: projects, keySetId: apiKeySets.id })
      .from(projects)
      .leftJoin(apiKeySets, keyJoin(column))
      .where(byProject)
      .limit(1)
      .prepare(`request_lookup_${name}_none`),
  );
  // The user record every route may read (`/users/me` answers with it).
  const withUser = perKeyColumn((column, name) =>
    db
      .select({ project: projects, keySetId: apiKeySets.id, ...USER_COLUMNS, ...session })
      .from(projects)
      .leftJoin(apiKeySets, keyJoin(column))
      .leftJoin(sessions, sessionOf(eq(sessions.id, placeholder("sessionId"))))
      .leftJoin(users, eq(users.id, sessions.userId))
      .leftJoin(...USER_JOINS.primary)
      .leftJoin(...USER_JOINS.team)
      .where(byProject)
      .limit(1)
      .prepare(`request_lookup_${name}_id`),
  );
  const withTokenSubject = perKeyColumn((column, name) =>
    db
      .select({ project: projects, keySetId: apiKeySets.id, ...TOKEN_SUBJECT_COLUMNS, ...session })
      .from(projects)
      .leftJoin(apiKeySets, keyJoin(column))
      .leftJoin(sessions, sessionOf(eq(sessions.refreshTokenHash, placeholder("refreshHash"))))
      .leftJoin(users, eq(users.id, sessions.userId))
      .leftJoin(...USER_JOINS.primary)
      .where(byProject)
      .limit(1)
      .prepare(`request_lookup_${name}_refresh`),
  );

  const parameters = (input: { projectId: string; key?: KeyInput; now: Date }) => ({
    projectId: input.projectId,
    hash: input.key?.hash ?? "",
    now: input.now.toISOString(),
  });
  const found = <User>(
    row: { project: typeof projects.$inferSelect; keySetId: string | null },
    key: KeyInput | undefined,
    session: Lookup<User>["session"],
  ): Lookup<User> => ({
    project: row.project,
    keyValid: key ? row.keySetId !== null : undefined,
    keySetId: row.keySetId ?? undefined,
    session,
  });

  return {
    /** The project, the key and the user record of the access token's session (`sessionId`), when there is one. */
    async lookup(input: {
      projectId: string;
      key?: KeyInput;
      sessionId?: string;
      now: Date;
    }): Promise<RequestLookup | undefined> {
      if (input.sessionId === undefined) {
        const [row] = await projectOnly(input.key?.column).execute(parameters(input));
        return row && found(row, input.key, undefined);
      }
      const [row] = await withUser(input.key?.column).execute({
        ...parameters(input),
        sessionId: input.sessionId,
      });
      if (!row) return undefined;
      // Left-joined from the session: null when the token named no live session.
      const user = row.user as UserRow | null;
      return found(
        row,
        input.key,
        user && row.sessionId && row.sessionExpiresAt
          ? { id: row.sessionId, user: toUserRecord({ ...row, user }), expiresAt: row.sessionExpiresAt }
          : undefined,
      );
    },

    /** The token endpoint's: the project, the key and the session of a refresh token's hash, with its subject. */
    async lookupForRefresh(input: {
      projectId: string;
      key?: KeyInput;
      refreshHash?: string;
      now: Date;
    }): Promise<Lookup<TokenSubject> | undefined> {
      if (input.refreshHash === undefined) {
        const [row] = await projectOnly(input.key?.column).execute(parameters(input));
        return row && found(row, input.key, undefined);
      }
      const [row] = await withTokenSubject(input.key?.column).execute({
        ...parameters(input),
        refreshHash: input.refreshHash,
      });
      if (!row) return undefined;
      const subject = row.subject as Omit<TokenSubject, "primaryEmail"> | null;
      return found(
        row,
        input.key,
        subject && row.sessionId && row.sessionExpiresAt
          ? {
              id: row.sessionId,
              user: { ...subject, primaryEmail: row.primary },
              expiresAt: row.sessionExpiresAt,
            }
          : undefined,
      );
    },
  };
}

export type RequestRepo = ReturnType<typeof createRequestRepo>;
