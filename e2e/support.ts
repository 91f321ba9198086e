// What the e2e suites that drive a running server process share: the process on a database of its own, `call`, one request that must answer
// the status the test expects, and a project made the way the dashboard makes one, through an operator account in
// the internal project (admin/administration.test.ts, browser/passkeys.test.ts).
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { promisify } from "node:util";
import {
  freePort,
  type RunningServer,
  type ServerScript,
  startServer,
} from "@gatehouse/server/testing/server-process";
import { adminQuery, seedPgliteDataDir, withDatabase } from "@gatehouse/server/testing/test-database";
import { expect, inject } from "vitest";
import { sharedBuild } from "./shared-builds.ts";

export type Json = Record<string, unknown>;

export type Call = (
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
  status?: number,
) => Promise<Json>;

/**
 * A suite's `call(method, path, headers, body?, status = 200)`: one request to `/api/v1{path}` of the server that
 * `server()` answers (a getter: suites start their server in beforeAll). Fails with the server's answer when the
 * status is not the expected one; answers the JSON body ({} for an empty one).
 */
export function apiCaller(server: () => RunningServer): Call {
  return async (method, path, headers, body, status = 200) => {
    const res = await fetch(`${server().baseUrl}/api/v1${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    expect(res.status, `${method} ${path}: ${text}`).toBe(status);
    return text ? (JSON.parse(text) as Json) : {};
  };
}

/**
 * A project made as the dashboard makes one, holding only the internal project's admin and publishable keys: the
 * internal project's first account, which thereby joins the team that owns it, signs in and creates `project` owned
 * by that team. Answers the created project and the operator's admin headers for it.
 */
export async function operatorProject(
  server: RunningServer,
  project: { display_name: string; config?: Json },
) {
  const call = apiCaller(() => server);
  const internalAdmin = {
    "x-stack-access-type": "admin",
    "x-stack-project-id": "internal",
    "x-stack-super-secret-admin-key": server.keys.sak,
  };
  const operator = await call(
    "POST",
    "/users",
    internalAdmin,
    {
      primary_email: "operator@example.com",
      primary_email_verified: true,
      primary_email_auth_enabled: true,
      password: "operator password 1",
    },
    201,
  );
  // The internal project's first user joins the team that owns it (a fresh server has no operator yet).
  const internal = await call("GET", "/projects/current", internalAdmin);
  const ownerTeamId = String(internal.owner_team_id);
  const session = await call("POST", "/auth/sessions", internalAdmin, { user_id: operator.id });
  const operatorToken = String(session.access_token);

  const created = await call(
    "POST",
    "/internal/projects",
    {
      "x-stack-access-type": "client",
      "x-stack-project-id": "internal",
      "x-stack-publishable-client-key": server.keys.pck,
      "x-stack-access-token": operatorToken,
    },
    { ...project, owner_team_id: ownerTeamId },
    201,
  );
  const projectId = String(created.id);
  const admin = {
    "x-stack-access-type": "admin",
    "x-stack-project-id": projectId,
    "x-stack-admin-access-token": operatorToken,
  };
  return { projectId, project: created, admin };
}

/**
 * The server process (or `npm start`'s, with `script`) on a database of its own (a fresh PostgreSQL database in the
 * postgres project, PGlite in a temporary data directory otherwise); `stop` ends it and removes its data. */
export async function startIsolatedServer(
  name: string,
  env: Record<string, string> = {},
  script?: ServerScript,
  /** How long the process may take to print its banner (startServer's own default when unset). */
  startTimeoutMs?: number,
): Promise<{ server: RunningServer; stop: () => Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), `gatehouse-${name}-`));
  const fullEnv: Record<string, string> = {
    PORT: String(await freePort()),
    GATEHOUSE_DATA_DIR: dataDir,
    ...env,
  };
  const template = inject("testDbTemplate");
  let databaseName: string | undefined;
  // The database starts as a copy of the run's migrated template, as createTestServer's do: the suites that test
  // migrating an empty database (e2e/server) start their servers themselves. On PGlite this saves each server
  // start its four seconds of migrations.
  if (template.kind === "postgres") {
    databaseName = `gatehouse_${name.replace(/\W/g, "_")}_${process.pid}_${Date.now()}`;
    await adminQuery(template.adminUrl, `create database ${databaseName} template ${template.templateName}`);
    fullEnv.DATABASE_URL = withDatabase(template.adminUrl, databaseName);
  } else {
    // A copy of a data directory seeded from the dump once per run: seeding each server's (opening PGlite on it, loading
    // the dump, closing) cost 1.7 to 3.3 s of CPU; `cp` of the seeded one costs 0.07 s, and gives the same files.
    const seeded = await sharedBuild(`pglite-data-${basename(template.dumpFile)}`, (dir) =>
      seedPgliteDataDir(dir, template.dumpFile),
    );
    await promisify(execFile)("cp", ["-R", "-p", seeded, join(dataDir, "data")]);
  }
  const server = await startServer(fullEnv, startTimeoutMs, script);
  return {
    server,
    async stop() {
      expect(await server.stop()).toBe(0);
      await rm(dataDir, { recursive: true, force: true });
      if (databaseName && template.kind === "postgres") {
        await adminQuery(template.adminUrl, `drop database if exists ${databaseName} with (force)`);
      }
    },
  };
}
