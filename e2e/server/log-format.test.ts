// The server's log as a person meets it: at a terminal (a real pseudo-terminal, through `script`) readable lines,
// a request in one short line and a development inbox e-mail's link on a line of its own, with no secret of the
// session; JSON when asked even there; and `npm start` at a terminal, which pipes the server's output, readable too.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { freePort } from "@gatehouse/server/testing/server-process";
import { adminQuery, withDatabase } from "@gatehouse/server/testing/test-database";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const PASSWORD = "log format password 1";
const EMAIL = "log-format@example.com";
/** The e-mail worker looks for new mail every 5 s: a wait for an event, not a measure of time. */
const WORKER_POLL = { timeout: 20_000, interval: 200 };

type Terminal = { output: () => string; baseUrl: string; key: (label: string) => string };
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

/** What a person reads: the terminal's output without colour codes and carriage returns. */
const readable = (text: string) => stripVTControlCharacters(text).replace(/\r/g, "");

/**
 * `script` (a node script of the repository) at a pseudo-terminal, on a database of its own, until it prints its
 * banner. Stopped after the suite: `script` ends its child when it is told to stop.
 */
async function atTerminal(name: string, file: string, env: Record<string, string>): Promise<Terminal> {
  const dataDir = await mkdtemp(join(tmpdir(), `gatehouse-${name}-`));
  const port = await freePort();
  const { DATABASE_URL: _inherited, GATEHOUSE_LOG_FORMAT: _format, ...parentEnv } = process.env;
  const fullEnv: Record<string, string | undefined> = {
    ...parentEnv,
    PORT: String(port),
    GATEHOUSE_DATA_DIR: dataDir,
    GATEHOUSE_DEMO: "off",
    GATEHOUSE_DASHBOARD_DIR: join(dataDir, "no-dashboard"),
    ...env,
  };
  const template = inject("testDbTemplate");
  const databaseName = `gatehouse_${name.replace(/\W/g, "_")}_${process.pid}_${Date.now()}`;
  if (template.kind === "postgres") {
    await adminQuery(template.adminUrl, `create database ${databaseName}`);
    fullEnv.DATABASE_URL = withDatabase(template.adminUrl, databaseName);
  }
  const command = `${process.execPath} --conditions=gatehouse-source --import tsx ${file}`;
  const child: ChildProcess = spawn("script", ["-qfec", command, "/dev/null"], {
    cwd: repoRoot,
    env: fullEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  cleanups.push(async () => {
    child.kill("SIGTERM");
    await exited;
    await rm(dataDir, { recursive: true, force: true });
    if (template.kind === "postgres") {
      await adminQuery(template.adminUrl, `drop database if exists ${databaseName} with (force)`);
    }
  });
  const deadline = Date.now() + 60_000;
  while (!output.includes("Gatehouse is running at")) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`${file} did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const key = (label: string) =>
    new RegExp(`${label}:\\s+(\\S+)`).exec(readable(output).split("Gatehouse is running at")[1] ?? "")?.[1] ??
    "";
  return { output: () => readable(output), baseUrl: `http://localhost:${port}`, key };
}

async function post(terminal: Terminal, path: string, body: unknown): Promise<Record<string, string>> {
  const res = await fetch(`${terminal.baseUrl}/api/v1${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-stack-access-type": "client",
      "x-stack-project-id": "internal",
      "x-stack-publishable-client-key": terminal.key("publishable client key"),
    },
    body: JSON.stringify(body),
  });
  expect(res.status, path).toBe(200);
  return (await res.json()) as Record<string, string>;
}

/** A line of the start-up banner, which prints the keys on purpose (the log must not). */
const BANNER = /^(Gatehouse is running at|\s+(API|Dashboard):|\s+.* project keys|\s+[a-z ]+ key: )/;
/** The log lines, without the start-up banner. */
const logOf = (output: string) =>
  output
    .split("\n")
    .filter((line) => !BANNER.test(line))
    .join("\n");

describe("the log at a terminal", () => {
  // Started side by side: each start waits for its own database and banner.
  let pretty: Terminal;
  let json: Terminal;
  let npmStart: Terminal;
  beforeAll(async () => {
    [pretty, json, npmStart] = await Promise.all([
      atTerminal("log-pretty", "apps/server/src/main.ts", { GATEHOUSE_LOG_LEVEL: "debug" }),
      atTerminal("log-json", "apps/server/src/main.ts", { GATEHOUSE_LOG_FORMAT: "json" }),
      atTerminal("log-npm-start", "scripts/start.ts", {}),
    ]);
  });

  it("is readable lines: requests in one short line, an e-mail's link alone on its line, no secrets", async () => {
    const terminal = pretty;
    expect((await fetch(`${terminal.baseUrl}/health`)).status).toBe(200);
    const session = await post(terminal, "/auth/password/sign-up", { email: EMAIL, password: PASSWORD });
    await post(terminal, "/auth/password/send-reset-code", {
      email: EMAIL,
      callback_url: "http://localhost:3000/handler/password-reset",
    });
    await expect
      .poll(() => terminal.output().includes("e-mail kept in development inbox"), WORKER_POLL)
      .toBe(true);

    const lines = logOf(terminal.output()).split("\n");
    expect(lines).toContainEqual(
      expect.stringMatching(/^\[\d\d:\d\d:\d\d\] INFO: listening url=http:\/\/localhost:\d+ port=\d+$/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^\[\d\d:\d\d:\d\d\] DEBUG: GET \/health 200 [\d.]+ms$/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^\[\d\d:\d\d:\d\d\] DEBUG: POST \/api\/v1\/auth\/password\/sign-up 200 [\d.]+ms$/,
      ),
    );
    const inbox = lines.findIndex((line) => line.includes("INFO: e-mail kept in development inbox"));
    expect(lines[inbox]).toContain(`to=${EMAIL}`);
    expect(lines[inbox + 1]).toMatch(
      /^ {4}→ http:\/\/localhost:3000\/handler\/password-reset\?code=[0-9a-z]{45}$/,
    );
    expect(lines.filter((line) => line.startsWith("{"))).toEqual([]);

    const secrets = [PASSWORD, session.access_token, session.refresh_token];
    secrets.push(
      ...["publishable client key", "secret server key", "super secret admin key"].map(terminal.key),
    );
    const log = logOf(terminal.output());
    for (const secret of secrets) expect(secret && log.includes(secret), "a secret in the log").toBe(false);
  });

  it("is JSON when asked, even at a terminal", async () => {
    const terminal = json;
    const lines = logOf(terminal.output())
      .split("\n")
      .filter((line) => line !== "");
    const listening = lines.find((line) => line.includes('"msg":"listening"')) ?? "";
    expect(JSON.parse(listening)).toMatchObject({ level: "info", msg: "listening", url: terminal.baseUrl });
    expect(lines.filter((line) => line.startsWith("[")).length).toBe(0);
  });

  it("is readable under `npm start`, which pipes the server's output", async () => {
    const terminal = npmStart;
    const lines = logOf(terminal.output()).split("\n");
    expect(lines).toContainEqual(expect.stringMatching(/^\[\d\d:\d\d:\d\d\] INFO: listening /));
    expect(lines.filter((line) => line.startsWith("{"))).toEqual([]);
  });
});
