// What the server loads to start: the libraries only some installs or some requests need (Redis, the HTML pages'
// renderer, SSO, the OpenID Provider, import parsers, e-mail, tracing, password strength) load when first used, so
// an idle server holds none of them (issue 24: idle memory). The server is started as main.ts starts it, in a child
// process whose every module resolution is recorded.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { freePort } from "./testing/server-process.ts";

const LOADED_ON_USE = [
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

it("starts without the libraries it needs only on use", async () => {
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
        fileURLToPath(new URL("./testing/import-recorder.mjs", import.meta.url)),
        fileURLToPath(new URL("./testing/startup-probe.ts", import.meta.url)),
      ],
      {
        env: {
          ...parent,
          GATEHOUSE_DATA_DIR: dataDir,
          GATEHOUSE_DEMO_PROJECT: "off",
          GATEHOUSE_LOG_FORMAT: "json",
          PORT: String(await freePort()),
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
    expect(packages.filter((name) => LOADED_ON_USE.includes(name))).toEqual([]);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 120_000);
