// The npm packages a real start of the server loads: main.ts started in a child process under import-recorder.mjs
// (every module resolution recorded) by startup-probe.ts. Used by the start-up imports tests.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { freePort } from "./server-process.ts";

/** Libraries only some installs or some requests need: a start must not load them. */
export const LOADED_ON_USE = [
  "ioredis",
  "react-dom",
  "openid-client",
  "oidc-provider",
  "@node-saml/node-saml",
  "@xmldom/xmldom",
  "selfsigned",
  "@zxcvbn-ts/core",
  "nodemailer",
  "@opentelemetry/sdk-trace-node",
  "csv-parse",
  "stream-json",
  "yaml",
  "commander",
];

/** The npm packages a real start of the server loaded, with `env` (its store) on top of a fresh data directory. */
export async function packagesLoadedAtStart(env: Record<string, string>): Promise<string[]> {
  const dataDir = mkdtempSync(join(tmpdir(), "gatehouse-startup-imports-"));
  const { DATABASE_URL: _db, REDIS_URL: _redis, OTEL_EXPORTER_OTLP_ENDPOINT: _otel, ...parent } = process.env;
  try {
    const child = spawn(
      process.execPath,
      [
        "--conditions=gatehouse-source",
        "--import",
        "tsx",
        "--import",
        fileURLToPath(new URL("./import-recorder.mjs", import.meta.url)),
        fileURLToPath(new URL("./startup-probe.ts", import.meta.url)),
      ],
      {
        env: {
          ...parent,
          GATEHOUSE_DATA_DIR: dataDir,
          GATEHOUSE_DEMO_PROJECT: "off",
          GATEHOUSE_LOG_FORMAT: "json",
          PORT: String(await freePort()),
          ...env,
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(code, output).toBe(0);
    const line = output.split("\n").find((text) => text.startsWith('{"packages"'));
    const { packages } = JSON.parse(line ?? "{}") as { packages: string[] };
    // The recorder works: what every start needs is there.
    expect(packages).toEqual(expect.arrayContaining(["hono", "drizzle-orm", "jose"]));
    return packages;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
