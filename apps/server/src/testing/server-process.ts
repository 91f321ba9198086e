// Runs the real server (`apps/server/src/main.ts`) as a child process, or `npm start`'s script that runs it with the
// demo app beside it, and reads what it prints: the start-up banner with the keys, and the log lines.
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { COMPILED_SERVER_ENV } from "./compiled-server.ts";

const repoRoot = fileURLToPath(new URL("../../../..", import.meta.url));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

export type RunningServer = {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
  keys: { pck: string; ssk: string; sak: string };
  /** Sends SIGTERM and resolves with the exit code. */
  stop: () => Promise<number | null>;
};

/**
 * What a test starts: the server alone, or `npm start` (scripts/start.ts: its settings, and the demo app), from the
 * repository through tsx; a built server artifact's `node server.js` in its own folder (no TypeScript loader); or
 * `gatehouse start`, given the node arguments that run the CLI (its bin, or its compiled copy).
 */
export type ServerScript =
  | "apps/server/src/main.ts"
  | "scripts/start.ts"
  | { artifactDir: string }
  | { cli: string[] };

export function spawnServer(
  env: Record<string, string | undefined>,
  script: ServerScript = "apps/server/src/main.ts",
) {
  // The suites read the JSON log lines: a developer's own GATEHOUSE_LOG_FORMAT=pretty must not reach them.
  // Nor may the test run's own database or Redis: a suite names the stores its servers use (a REDIS_URL handed to
  // the run for the store suites would move every spawned server's limits to one shared Redis).
  const {
    DATABASE_URL: _database,
    REDIS_URL: _redis,
    GATEHOUSE_LOG_FORMAT: _format,
    ...parentEnv
  } = process.env;
  // An artifact runs as an operator runs it: plain node, no loader a parent's NODE_OPTIONS might bring.
  if (typeof script === "object" && "artifactDir" in script) delete parentEnv.NODE_OPTIONS;
  const compiled = script === "apps/server/src/main.ts" ? process.env[COMPILED_SERVER_ENV] : undefined;
  const [args, cwd] =
    typeof script === "object"
      ? "artifactDir" in script
        ? [["server.js"], script.artifactDir]
        : [[...script.cli, "start"], repoRoot]
      : compiled
        ? [["--enable-source-maps", compiled], repoRoot]
        : [["--conditions=gatehouse-source", "--import", "tsx", script], repoRoot];
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...parentEnv, GATEHOUSE_LOG_FORMAT: "json", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Starts a server and waits until it printed its banner; fails with the server's output if it does not. */
export async function startServer(
  env: Record<string, string | undefined>,
  timeoutMs = 60_000,
  script?: ServerScript,
): Promise<RunningServer> {
  const port = Number(env.PORT);
  const spawned = spawnServer(env, script);
  const deadline = Date.now() + timeoutMs;
  while (!spawned.output().includes("Gatehouse is running at")) {
    if (spawned.child.exitCode !== null || Date.now() > deadline) {
      spawned.child.kill("SIGKILL");
      throw new Error(`Server did not start:\n${spawned.output()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const key = (label: string) => new RegExp(`${label}:\\s+(\\S+)`).exec(spawned.output())?.[1] ?? "";
  return {
    child: spawned.child,
    baseUrl: `http://localhost:${port}`,
    output: spawned.output,
    keys: {
      pck: key("publishable client key"),
      ssk: key("secret server key"),
      sak: key("super secret admin key"),
    },
    stop: async () => {
      spawned.child.kill("SIGTERM");
      return spawned.exited;
    },
  };
}
