// The one query behind every authenticated request: the project, whether the presented key is valid for it, and
// the user of the access token's session. One round trip instead of three on the hottest path of the server.
// Each asks for what its request reads and no more: without a token no session is joined, and a refresh reads only
// what the new token's claims need (pg and drizzle spend per column of every answer).
//
// The project row itself is read once per change, not per request: the lookup reads its row version (`xmin`, which
// PostgreSQL gives every new version of a row, whoever wrote it: a route, a trigger, a restore, an operator's psql)
// and the process keeps the last row it read of each project with that version. When the version differs, the row
// is read again. So no request ever acts on an older project row than the lookup saw, with no change feed to miss,
// and every request is spared reading and parsing the project's config: one interleaved quick run, `/users/me` went
// 0.52 -> 0.56 of the floor and `projects/current` 0.96 -> 1.07 (bench/README, sixth pass).
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

type Project = typeof projects.$inferSelect;
/** The version of the project row the lookup saw (see the top of this file). */
const projectVersion = sql<string>`${projects}.xmin::text`;
/** Projects kept per process; beyond that, the one read longest ago is forgotten (and read again when next used). */
const PROJECTS_KEPT = 1000;

/** Cached rows are shared by every request: frozen, so that code changing one fails loudly instead of leaking. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

export type Lookup<User> = {
  /** Shared with other requests, and frozen: never change it. */
  project: Project;
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

  const readProject = db
    .select({ project: projects, version: projectVersion })
    .from(projects)
    .where(byProject)
    .prepare("request_project");
  const kept = new Map<string, { version: string; project: Project }>();
  /** Reads under way, so that the requests arriving together after a change read the row once. */
  const reading = new Map<string, Promise<Project | undefined>>();
  async function readAgain(projectId: string): Promise<Project | undefined> {
    const [row] = await readProject.execute({ projectId });
    if (!row) return undefined; // deleted since the lookup
    kept.delete(projectId); // re-inserted last: the map's order is the order of reading
    kept.set(projectId, { version: row.version, project: deepFreeze(row.project) });
    if (kept.size > PROJECTS_KEPT) kept.delete(kept.keys().next().value as string);
    return row.project;
  }
  /** The project row at `version` or newer: the one kept, or read again when the lookup saw another version. */
  function projectAt(projectId: string, version: string): Promise<Project | undefined> {
    const known = kept.get(projectId);
    if (known?.version === version) return Promise.resolve(known.project);
    const key = `${projectId}@${version}`;
    let pending = reading.get(key);
    if (!pending) {
      pending = readAgain(projectId).finally(() => reading.delete(key));
      reading.set(key, pending);
    }
    return pending;
  }

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
      .select({ projectVersion, keySetId: apiKeySets.id })
      .from(projects)
      .leftJoin(apiKeySets, keyJoin(column))
      .where(byProject)
      .limit(1)
      .prepare(`request_lookup_${name}_none`),
  );
  // The user record every route may read (`/users/me` answers with it).
  const withUser = perKeyColumn((column, name) =>
    db
      .select({ projectVersion, keySetId: apiKeySets.id, ...USER_COLUMNS, ...session })
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
      .select({ projectVersion, keySetId: apiKeySets.id, ...TOKEN_SUBJECT_COLUMNS, ...session })
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
  /** The lookup's answer; undefined when the project does not exist (or was deleted since). */
  const found = async <User>(
    projectId: string,
    row: { projectVersion: string; keySetId: string | null },
    key: KeyInput | undefined,
    session: Lookup<User>["session"],
  ): Promise<Lookup<User> | undefined> => {
    const project = await projectAt(projectId, row.projectVersion);
    return (
      project && {
        project,
        keyValid: key ? row.keySetId !== null : undefined,
        keySetId: row.keySetId ?? undefined,
        session,
      }
    );
  };

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
        return row && found(input.projectId, row, input.key, undefined);
      }
      const [row] = await withUser(input.key?.column).execute({
        ...parameters(input),
        sessionId: input.sessionId,
      });
      if (!row) return undefined;
      // Left-joined from the session: null when the token named no live session.
      const user = row.user as UserRow | null;
      return found(
        input.projectId,
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
        return row && found(input.projectId, row, input.key, undefined);
      }
      const [row] = await withTokenSubject(input.key?.column).execute({
        ...parameters(input),
        refreshHash: input.refreshHash,
      });
      if (!row) return undefined;
      const subject = row.subject as Omit<TokenSubject, "primaryEmail"> | null;
      return found(
        input.projectId,
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
