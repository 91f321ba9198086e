// Several real server processes on one fresh PostgreSQL database behind a small round-robin proxy (the server's
// testing/round-robin-proxy.ts, which bench/ measures through too), as an operator runs Gatehouse behind a load
// balancer: same GATEHOUSE_SECRET, data directory and public origin (the proxy's), GATEHOUSE_TRUST_PROXY on.
// Exported for every e2e/cluster suite, the chaos tests among them.
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RoundRobinProxy, startProxy } from "@gatehouse/server/testing/round-robin-proxy";
import { freePort, type RunningServer, startServer } from "@gatehouse/server/testing/server-process";
import { adminQuery, withDatabase } from "@gatehouse/server/testing/test-database";
import { inject } from "vitest";

export type Cluster = {
  servers: RunningServer[];
  proxy: RoundRobinProxy;
  /** The public origin (the proxy's), with the internal project's keys the processes printed. */
  gateway: RunningServer;
  databaseUrl: string;
  /** Starts one more process on the same database, data directory and origin (after a kill, say). */
  startAnother: () => Promise<RunningServer>;
  stop: () => Promise<void>;
};

/** `processes` servers on one fresh PostgreSQL database behind the proxy; `env` adds to every process's settings. */
export async function startCluster(processes = 3, env: Record<string, string> = {}): Promise<Cluster> {
  const template = inject("testDbTemplate");
  if (template.kind !== "postgres") throw new Error("e2e/cluster runs on PostgreSQL only (DATABASE_URL)");
  const databaseName = `gatehouse_cluster_${process.pid}_${randomBytes(4).toString("hex")}`;
  await adminQuery(template.adminUrl, `create database ${databaseName}`);
  const databaseUrl = withDatabase(template.adminUrl, databaseName);
  const dataDir = await mkdtemp(join(tmpdir(), "gatehouse-cluster-"));
  const servers: RunningServer[] = [];
  const proxy = await startProxy(() => servers.map((s) => s.baseUrl));
  const shared: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    GATEHOUSE_DATA_DIR: dataDir,
    GATEHOUSE_SECRET: randomBytes(32).toString("hex"),
    // The public origin names the issuer of every token: the proxy's, for every process.
    GATEHOUSE_BASE_URL: proxy.url,
    GATEHOUSE_TRUST_PROXY: "true",
    GATEHOUSE_DEMO_PROJECT: "off",
    ...env,
  };
  const startAnother = async () => {
    const server = await startServer({ ...shared, PORT: String(await freePort()) });
    servers.push(server);
    return server;
  };
  try {
    // The first migrates and seeds (and generates the internal keys into the data directory); the rest then start
    // together and find it done.
    await startAnother();
    await Promise.all(Array.from({ length: processes - 1 }, startAnother));
  } catch (error) {
    await Promise.all(servers.map((s) => s.stop()));
    await proxy.close();
    throw error;
  }
  const first = servers[0] as RunningServer;
  return {
    servers,
    proxy,
    gateway: { ...first, baseUrl: proxy.url },
    databaseUrl,
    startAnother,
    async stop() {
      await proxy.close();
      await Promise.all(servers.map((server) => server.stop()));
      await rm(dataDir, { recursive: true, force: true });
      await adminQuery(template.adminUrl, `drop database if exists ${databaseName} with (force)`);
    },
  };
}

/** The internal project's headers for an access type, with the keys the processes printed. */
export { internalHeaders } from "../security/cluster.ts";
