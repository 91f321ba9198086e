// The server as a user starts it: on the embedded database (or PostgreSQL in the postgres run), printing its
// keys, answering with them, keeping everything across a restart, refusing a second server on the same data,
// and stopping cleanly.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  freePort,
  type RunningServer,
  spawnServer,
  startServer,
} from "@gatehouse/server/testing/server-process";
import { adminQuery, withDatabase } from "@gatehouse/server/testing/test-database";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

let dataDir: string;
let env: Record<string, string>;
let databaseName: string | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "gatehouse-e2e-"));
  env = { PORT: String(await freePort()), GATEHOUSE_DATA_DIR: dataDir };
  const template = inject("testDbTemplate");
  if (template.kind === "postgres") {
    databaseName = `gatehouse_e2e_${process.pid}_${Date.now()}`;
    await adminQuery(template.adminUrl, `create database ${databaseName}`);
    env.DATABASE_URL = withDatabase(template.adminUrl, databaseName);
  }
});

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
  const template = inject("testDbTemplate");
  if (databaseName && template.kind === "postgres") {
    await adminQuery(template.adminUrl, `drop database if exists ${databaseName} with (force)`);
  }
});

const clientHeaders = (pck: string) => ({
  "x-hexclave-access-type": "client",
  "x-hexclave-project-id": "internal",
  "x-hexclave-publishable-client-key": pck,
});

describe("npm start", () => {
  let first: RunningServer;
  let kid: string;

  it("starts, prints its keys and answers with them", async () => {
    first = await startServer(env);
    expect(await (await fetch(`${first.baseUrl}/health?db=1`)).json()).toEqual({ status: "ok" });
    expect(first.keys.pck).toMatch(/^pck_[0-9a-z]{45}$/);
    expect(first.keys.ssk).toMatch(/^ssk_[0-9a-z]{45}$/);
    expect(first.keys.sak).toMatch(/^sak_[0-9a-z]{45}$/);
    const res = await fetch(`${first.baseUrl}/api/v1/projects/current`, {
      headers: clientHeaders(first.keys.pck),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { id: string }).id).toBe("internal");
    const jwks = (await (
      await fetch(`${first.baseUrl}/api/v1/projects/internal/.well-known/jwks.json`)
    ).json()) as {
      keys: { kid: string }[];
    };
    kid = jwks.keys[0]?.kid ?? "";
    expect(kid).not.toBe("");
  });

  it("logs one structured line per request, without secrets", async () => {
    const lines = first
      .output()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const request = lines.find((l) => l.msg === "request" && l.path === "/api/v1/projects/current");
    expect(request).toMatchObject({ method: "GET", status: 200, level: "info" });
    expect(typeof request?.ms).toBe("number");
    expect(request?.request_id).toMatch(/^[0-9a-f-]{36}$/);
    const logText = lines.map((l) => JSON.stringify(l)).join("\n");
    for (const key of Object.values(first.keys)) expect(logText).not.toContain(key);
  });

  // Only the embedded database is guarded by the lock file; PostgreSQL takes any number of servers.
  if (inject("testDbTemplate").kind === "pglite") {
    it("refuses a second server on the same data directory", async () => {
      const second = spawnServer({ ...env, PORT: String(await freePort()) });
      expect(await second.exited).toBe(1);
      expect(second.output()).toMatch(/Another Gatehouse server \(pid \d+\) is using the data directory/);
    });
  }

  it("stops cleanly on SIGTERM and keeps project, keys and signing keys across a restart", async () => {
    expect(await first.stop()).toBe(0);
    expect(first.output()).toContain('"msg":"stopped"');
    const again = await startServer(env);
    try {
      expect(again.keys).toEqual(first.keys);
      const res = await fetch(`${again.baseUrl}/api/v1/projects/current`, {
        headers: clientHeaders(first.keys.pck),
      });
      expect(res.status).toBe(200);
      const jwks = (await (
        await fetch(`${again.baseUrl}/api/v1/projects/internal/.well-known/jwks.json`)
      ).json()) as {
        keys: { kid: string }[];
      };
      expect(jwks.keys.map((k) => k.kid)).toContain(kid);
    } finally {
      expect(await again.stop()).toBe(0);
    }
  });

  it("refuses invalid configuration with a clear message", async () => {
    const bad = spawnServer({ ...env, PORT: "not-a-port" });
    expect(await bad.exited).toBe(1);
    expect(bad.output()).toContain("Invalid configuration:\n  PORT:");
  });
});
