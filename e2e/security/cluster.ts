// The servers a security suite attacks: real server processes on a database of their own. In the postgres run,
// `processes` servers share one PostgreSQL database, data directory and secret, as an operator runs several behind a
// load balancer; in the pglite run the embedded database allows one process, so there is one.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, type RunningServer, startServer } from "@gatehouse/server/testing/server-process";
import { adminQuery, withDatabase } from "@gatehouse/server/testing/test-database";
import { inject } from "vitest";

export type Cluster = {
  servers: RunningServer[];
  /** Starts one more server on the same database and data directory (after a crash, say). */
  startAnother: () => Promise<RunningServer>;
  /** The database URL in the postgres run; the embedded database's directory otherwise. */
  database: { url: string } | { pgliteDir: string };
  stop: () => Promise<void>;
};

export async function startCluster(processes: number, env: Record<string, string> = {}): Promise<Cluster> {
  const dataDir = await mkdtemp(join(tmpdir(), "gatehouse-security-"));
  const template = inject("testDbTemplate");
  const shared: Record<string, string> = {
    ...env,
    GATEHOUSE_DATA_DIR: dataDir,
    GATEHOUSE_DEMO_PROJECT: "off",
  };
  let databaseName: string | undefined;
  if (template.kind === "postgres") {
    databaseName = `gatehouse_security_${process.pid}_${Date.now()}`;
    await adminQuery(template.adminUrl, `create database ${databaseName}`);
    shared.DATABASE_URL = withDatabase(template.adminUrl, databaseName);
  }
  const count = template.kind === "postgres" ? processes : 1;
  const servers: RunningServer[] = [];
  // Behind a load balancer the processes share one public origin, which names the issuer of every token.
  const firstPort = String(await freePort());
  shared.GATEHOUSE_BASE_URL = `http://localhost:${firstPort}`;
  const startAnother = async () => {
    const port = servers.length === 0 ? firstPort : String(await freePort());
    const server = await startServer({ ...shared, PORT: port });
    servers.push(server);
    return server;
  };
  // One after another: the first migrates and seeds, the others find it done.
  for (let i = 0; i < count; i++) await startAnother();
  return {
    servers,
    startAnother,
    database: shared.DATABASE_URL ? { url: shared.DATABASE_URL } : { pgliteDir: join(dataDir, "data") },
    async stop() {
      await Promise.all(servers.map((server) => server.stop()));
      await rm(dataDir, { recursive: true, force: true });
      if (databaseName && template.kind === "postgres") {
        await adminQuery(template.adminUrl, `drop database if exists ${databaseName} with (force)`);
      }
    },
  };
}

const KEY_HEADERS = {
  client: "x-stack-publishable-client-key",
  server: "x-stack-secret-server-key",
  admin: "x-stack-super-secret-admin-key",
} as const;
const KEY_OF = { client: "pck", server: "ssk", admin: "sak" } as const;

/** The headers of the internal project for an access type, with the keys the servers printed. */
export function internalHeaders(
  server: RunningServer,
  type: keyof typeof KEY_HEADERS,
): Record<string, string> {
  return {
    "x-stack-access-type": type,
    "x-stack-project-id": "internal",
    [KEY_HEADERS[type]]: server.keys[KEY_OF[type]],
  };
}
