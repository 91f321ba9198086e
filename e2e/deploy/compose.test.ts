// The deployment files, checked where images cannot be built: compose.yaml parses and wires Gatehouse ×2, PostgreSQL
// and the proxy together, every file it names exists, Caddy's upstreams are those services on the image's port,
// and the Dockerfile runs the artifact as an unprivileged user with a health check.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const read = (file: string) => readFileSync(join(repoRoot, file), "utf8");

type Service = {
  build?: string;
  image?: string;
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, unknown> | string[];
};
const compose = parse(read("compose.yaml"), { merge: true }) as { services: Record<string, Service> };
const dockerfile = read("Dockerfile");
const gatehouses = Object.entries(compose.services).filter(([, s]) => s.build !== undefined);

describe("compose.yaml", () => {
  it("runs two Gatehouse services built from the Dockerfile, PostgreSQL and a proxy", () => {
    expect(gatehouses.map(([name]) => name)).toEqual(["gatehouse-1", "gatehouse-2"]);
    expect(compose.services.postgres?.image).toMatch(/^postgres:/);
    expect(compose.services.proxy?.image).toMatch(/^caddy:/);
    for (const [, service] of gatehouses) {
      expect(existsSync(join(repoRoot, service.build ?? "", "Dockerfile"))).toBe(true);
      const env = service.environment ?? {};
      // One database, one secret and one public origin for all, behind a proxy they trust.
      expect(env.DATABASE_URL).toMatch(/^postgres:\/\/gatehouse:.*@postgres:5432\/gatehouse$/);
      expect(env.GATEHOUSE_SECRET).toContain("GATEHOUSE_SECRET");
      expect(env.GATEHOUSE_BASE_URL).toMatch(/^https:\/\//);
      expect(env.GATEHOUSE_TRUST_PROXY).toBe("true");
    }
  });

  it("names only services and files that exist", () => {
    const names = Object.keys(compose.services);
    for (const service of Object.values(compose.services)) {
      const dependsOn = Array.isArray(service.depends_on)
        ? service.depends_on
        : Object.keys(service.depends_on ?? {});
      for (const name of dependsOn) expect(names).toContain(name);
      for (const volume of service.volumes ?? []) {
        const source = volume.split(":")[0] ?? "";
        if (source.startsWith(".")) expect(existsSync(join(repoRoot, source)), source).toBe(true);
      }
    }
  });

  it("has Caddy send requests to every Gatehouse service on the port the image listens on", () => {
    const port = /^EXPOSE (\d+)$/m.exec(dockerfile)?.[1];
    expect(port).toBe("8102");
    const caddyfile = read("deploy/Caddyfile");
    const upstreams = /reverse_proxy ([^{]+)\{/.exec(caddyfile)?.[1]?.trim().split(/\s+/);
    expect(upstreams).toEqual(gatehouses.map(([name]) => `${name}:${port}`));
    expect(caddyfile).toMatch(/Strict-Transport-Security "max-age=31536000; includeSubDomains"/);
  });
});

describe("Dockerfile", () => {
  it("copies the artifact onto node:20-slim and runs it unprivileged with a health check", () => {
    expect(dockerfile).toMatch(/^FROM node:20-slim$/m);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n.*\/health\?db=1/m);
    expect(dockerfile).toMatch(/^RUN npm ci --omit=dev/m);
    expect(dockerfile).toMatch(/^CMD \["node", "server\.js"\]$/m);
    // Nothing but the artifact: every COPY takes from dist/ (e2e/server/artifact.test.ts checks the build has them).
    const copies = [...dockerfile.matchAll(/^COPY (.+) \S+$/gm)].flatMap((m) => (m[1] ?? "").split(" "));
    expect(copies.length).toBeGreaterThan(0);
    for (const source of copies) expect(source).toMatch(/^dist\//);
  });
});
