// The Gatehouse side of `npm run bench` and `bench:statements`: the real server process, one worker (its pid is the
// server whose CPU time and RSS the rows report), on a fresh PostgreSQL database dropped when it stops; run from the
// repository through tsx, or as production runs it, from the artifact `buildArtifact` makes.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import {
  freePort,
  type RunningServer,
  type ServerScript,
  startServer,
} from "@gatehouse/server/testing/server-process";
import { adminQuery, withDatabase } from "@gatehouse/server/testing/test-database";

export const adminUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
export const PASSWORD = "correct horse battery";

/** A fresh database for one run (`tag` names it); `drop` removes it. */
export async function freshDatabase(
  tag: string,
): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `${tag}_${Date.now()}`;
  await adminQuery(adminUrl, `create database ${name}`);
  return {
    name,
    url: withDatabase(adminUrl, name),
    drop: () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`).then(() => undefined),
  };
}

export type Gatehouse = {
  server: RunningServer;
  databaseUrl: string;
  /** The API's root, `…/api/v1`. */
  api: string;
  /** The headers of a client request to the internal project. */
  client: Record<string, string>;
  /** Signs `email` up with the bench password; answers the tokens. */
  signUp: (email: string) => Promise<{ access_token: string; refresh_token: string }>;
  stop: () => Promise<void>;
};

const run = promisify(execFile);
const repoRoot = join(import.meta.dirname, "..");

/**
 * The production form of the server in `dir`: `npm run build`'s artifact (compiled JavaScript, plain
 * `node server.js`) with its runtime packages installed offline.
 */
export async function buildArtifact(dir: string): Promise<ServerScript> {
  process.stderr.write("building the artifact…\n");
  await run(process.execPath, ["--import", "tsx", "scripts/build.ts", "--out", dir], { cwd: repoRoot });
  await run("npm", ["ci", "--omit=dev", "--offline", "--no-audit", "--no-fund"], { cwd: dir });
  return { artifactDir: dir };
}

/** `script`: the repository's main.ts through tsx (the default), or an artifact from `buildArtifact`. */
export async function startGatehouse(
  env: Record<string, string> = {},
  script?: ServerScript,
): Promise<Gatehouse> {
  const database = await freshDatabase("gatehouse_bench");
  let server: RunningServer;
  try {
    server = await startServer(
      {
        PORT: String(await freePort()),
        DATABASE_URL: database.url,
        GATEHOUSE_DATA_DIR: `/tmp/${database.name}`,
        // Limits off: the benchmark is one client IP sending far more than 600 requests a minute on purpose.
        GATEHOUSE_RATE_LIMITS: "off",
        GATEHOUSE_WORKERS: "1",
        GATEHOUSE_LOG_LEVEL: "warn",
        ...env,
      },
      60_000,
      script,
    );
  } catch (error) {
    await database.drop();
    throw error;
  }
  const api = `${server.baseUrl}/api/v1`;
  const client = {
    "x-stack-access-type": "client",
    "x-stack-project-id": "internal",
    "x-stack-publishable-client-key": server.keys.pck,
    "content-type": "application/json",
  };
  const signUp = async (email: string) => {
    const res = await fetch(`${api}/auth/password/sign-up`, {
      method: "POST",
      headers: client,
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    if (!res.ok) throw new Error(`Gatehouse sign-up: ${res.status} ${await res.text()}`);
    return (await res.json()) as { access_token: string; refresh_token: string };
  };
  let stopped: Promise<void> | undefined;
  // Idempotent: a run stops it early to free the machine, and its `finally` stops it again.
  const stop = () => {
    stopped ??= server.stop().then(database.drop);
    return stopped;
  };
  return { server, databaseUrl: database.url, api, client, signUp, stop };
}
