// The npm packages a real start of the server loads: main.ts, or an artifact's server.js, started in a child process
// under import-recorder.mjs (every module resolution recorded) by startup-probe.mjs. Used by the start-up imports
// tests and the artifact's.
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

const testing = (file: string) => fileURLToPath(new URL(`./${file}`, import.meta.url));

/**
 * The npm packages a real start of the server loaded, with `env` (its store) on top of a fresh data directory: of
 * main.ts through tsx, or of a built artifact's server.js with plain node, where only the packages installed beside
 * it (scripts/build.ts RUNTIME_PACKAGES) can show, since the others are inside the bundle.
 */
export async function packagesLoadedAtStart(
  env: Record<string, string>,
  artifactDir?: string,
): Promise<string[]> {
  const dataDir = mkdtempSync(join(tmpdir(), "gatehouse-startup-imports-"));
  const { DATABASE_URL: _db, REDIS_URL: _redis, OTEL_EXPORTER_OTLP_ENDPOINT: _otel, ...parent } = process.env;
  // An artifact runs as an operator runs it: no loader a parent's NODE_OPTIONS might bring.
  if (artifactDir) delete parent.NODE_OPTIONS;
  const probe = ["--import", testing("import-recorder.mjs"), testing("startup-probe.mjs")];
  const [args, cwd] = artifactDir
    ? [[...probe, join(artifactDir, "server.js")], artifactDir]
    : [["--conditions=gatehouse-source", "--import", "tsx", ...probe, testing("../main.ts")], undefined];
  try {
    const child = spawn(process.execPath, args, {
      cwd,
      env: {
        ...parent,
        GATEHOUSE_DATA_DIR: dataDir,
        GATEHOUSE_DEMO_PROJECT: "off",
        GATEHOUSE_LOG_FORMAT: "json",
        PORT: String(await freePort()),
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(code, output).toBe(0);
    const line = output.split("\n").find((text) => text.startsWith('{"packages"'));
    const { packages } = JSON.parse(line ?? "{}") as { packages: string[] };
    // The recorder works: what every start needs is there (in an artifact, only pg or PGlite can show).
    const needed = artifactDir ? [] : ["hono", "drizzle-orm", "jose"];
    expect(packages).toEqual(expect.arrayContaining(needed));
    return packages;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
