// The meta routes of WIRE.md §4.18: /health (with and without the database ping), the API root's caller text,
// check-feature-support, the generated API reference (/api/v1/openapi.json and the /api/v1/docs page), the page at /
// and the favicon.
import { allRoutes } from "@gatehouse/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectKnownError } from "../testing/expect-error.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
} from "../testing/test-server.ts";

const FEATURE = "/api/v1/check-feature-support";
const NOT_SUPPORTED = " is not yet supported. Please reach out to Stack support for more information.";
const WELCOME = "Welcome to the Gatehouse API endpoint!\n\nAuthentication: ";

let server: TestServer;
let keys: ProjectKeys;

beforeAll(async () => {
  server = await createTestServer();
  keys = (await server.createProject({ displayName: "Meta" })).keys;
});
afterAll(() => server.close());

async function expectText(res: Response, text: string) {
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
  expect(await res.text()).toBe(text);
}

describe("GET /health", () => {
  it("answers ok as JSON with CORS", async () => {
    const res = await server.request("/health");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    expect(res.headers.get("cache-control")).toBe("no-store, max-age=0");
    expect(await res.text()).toBe('{"status":"ok"}');
  });

  it("pings the database with db=1", async () => {
    const res = await server.request("/health?db=1");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await res.json()).toEqual({ status: "ok" });
  });

  it("rejects an unknown query value and an unknown query field", async () => {
    await expectKnownError(await server.request("/health?db=2"), "SCHEMA_ERROR");
    await expectKnownError(await server.request("/health?verbose=1"), "SCHEMA_ERROR");
  });

  it("answers 503 error with db=1 once the database is gone, but ok without the ping", async () => {
    const broken = await createTestServer();
    await broken.close();
    const res = await broken.request("/health?db=1");
    expect(res.status).toBe(503);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(await res.json()).toEqual({ status: "error" });
    const plain = await broken.request("/health");
    expect(plain.status).toBe(200);
    expect(await plain.json()).toEqual({ status: "ok" });
  });
});

describe("GET /api/v1", () => {
  it("names no caller without headers", async () => {
    const res = await server.request("/api/v1");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    await expectText(res, `${WELCOME}None`);
  });

  it("names the access type and project of a server caller without a user", async () => {
    const res = await server.request("/api/v1", { headers: accessHeaders("server", keys) });
    await expectText(res, `${WELCOME}server access to project ${keys.projectId}, no user`);
  });

  it("names the user of an access token", async () => {
    const { accessToken: token, userId } = await server.signIn(keys.projectId);
    const res = await server.request("/api/v1", {
      headers: { ...accessHeaders("client", keys), "x-stack-access-token": token },
    });
    await expectText(res, `${WELCOME}client access to project ${keys.projectId}, user ${userId}`);
  });

  it("still resolves headers when present: a wrong key is an error", async () => {
    await expectKnownError(
      await server.request("/api/v1", {
        headers: { ...accessHeaders("client", keys), "x-stack-publishable-client-key": "pck_wrong" },
      }),
      "INVALID_PUBLISHABLE_CLIENT_KEY",
    );
  });
});

describe("POST /api/v1/check-feature-support", () => {
  const post = (body: string | undefined, headers: Record<string, string> = {}) =>
    server.request(FEATURE, {
      method: "POST",
      headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
      body,
    });

  it("names the feature and tolerates unknown fields", async () => {
    await expectText(await post(JSON.stringify({ feature_name: "X", anything: 1 })), `X${NOT_SUPPORTED}`);
  });

  it("says 'This feature' without a body and with an empty object", async () => {
    await expectText(await post(undefined), `This feature${NOT_SUPPORTED}`);
    await expectText(await post("{}"), `This feature${NOT_SUPPORTED}`);
  });

  it("accepts any JSON body: an array, a scalar, a non-string feature_name", async () => {
    await expectText(await post("[1,2]"), `This feature${NOT_SUPPORTED}`);
    await expectText(await post('"X"'), `This feature${NOT_SUPPORTED}`);
    await expectText(await post(JSON.stringify({ feature_name: 5 })), `This feature${NOT_SUPPORTED}`);
  });

  it("reads no Gatehouse headers (access none): a wrong key is ignored", async () => {
    const wrong = { ...accessHeaders("server", keys), "x-stack-secret-server-key": "ssk_wrong" };
    await expectText(await post(JSON.stringify({ feature_name: "Y" }), wrong), `Y${NOT_SUPPORTED}`);
    await expectText(
      await post(undefined, { "x-stack-access-type": "root", "x-stack-project-id": "nope" }),
      `This feature${NOT_SUPPORTED}`,
    );
  });

  it("carries CORS headers", async () => {
    const res = await post(JSON.stringify({ feature_name: "Z" }));
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });
});

type Operation = {
  security?: Record<string, string[]>[];
  parameters: { name: string; in: string; required: boolean }[];
};
type OpenApi = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
};

describe("GET /api/v1/openapi.json", () => {
  let doc: OpenApi;
  beforeAll(async () => {
    const res = await server.request("/api/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    doc = (await res.json()) as OpenApi;
  });

  it("is an OpenAPI 3.1 document", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.components.schemas.KnownError).toBeTypeOf("object");
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([
      "accessToken",
      "adminAccessToken",
      "projectId",
      "publishableClientKey",
      "secretServerKey",
      "superSecretAdminKey",
    ]);
    expect(doc.components.securitySchemes.publishableClientKey).toMatchObject({
      type: "apiKey",
      in: "header",
      name: "x-stack-publishable-client-key",
    });
  });

  it("keeps every named schema in components, where each $ref points", () => {
    const text = JSON.stringify(doc);
    expect(text).not.toContain('"$defs"');
    const refs = [...text.matchAll(/"\$ref":"([^"]+)"/g)].map(([, ref]) => ref as string);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of new Set(refs)) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(doc.components.schemas, ref).toHaveProperty(ref.slice("#/components/schemas/".length));
    }
  });

  it("documents every route of the contract with its method, and nothing else", () => {
    for (const route of allRoutes) {
      expect(Object.keys(doc.paths[route.path] ?? {}), route.path).toContain(route.method.toLowerCase());
    }
    const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method} ${path}`),
    );
    expect(documented.sort()).toEqual(allRoutes.map((r) => `${r.method.toLowerCase()} ${r.path}`).sort());
  });

  it("declares the headers of each access type of /projects/current: the access type, project id and key", () => {
    const operation = doc.paths["/api/v1/projects/current"]?.get;
    expect(operation?.security).toEqual([
      { projectId: [], publishableClientKey: [] },
      { projectId: [], secretServerKey: [] },
      { projectId: [], superSecretAdminKey: [] },
      { projectId: [], adminAccessToken: [] },
    ]);
    expect(operation?.parameters).toContainEqual(
      expect.objectContaining({
        name: "x-stack-access-type",
        in: "header",
        required: true,
        schema: { type: "string", enum: ["client", "server", "admin"] },
      }),
    );
    expect(doc.paths["/health"]?.get?.security).toBeUndefined();
    expect(doc.paths["/health"]?.get?.parameters.map((p) => p.name)).toEqual(["db"]);
  });

  it("asks for the user's access token where a route needs a signed-in user", () => {
    expect(doc.paths["/api/v1/auth/password/update"]?.post?.security).toContainEqual({
      projectId: [],
      publishableClientKey: [],
      accessToken: [],
    });
  });

  it("lists project_id as a required path parameter of the JWKS and its query flags as optional", () => {
    const params = doc.paths["/api/v1/projects/{project_id}/.well-known/jwks.json"]?.get?.parameters ?? [];
    expect(params.map((p) => ({ name: p.name, in: p.in, required: p.required }))).toEqual([
      { name: "project_id", in: "path", required: true },
      { name: "include_restricted", in: "query", required: false },
      { name: "include_anonymous", in: "query", required: false },
    ]);
  });
});

describe("GET /api/v1/docs", () => {
  it("is the reference page: the renderer and its start served from here, over the OpenAPI document", async () => {
    const res = await server.request("/api/v1/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await res.text();
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toContain("<title>Gatehouse API reference</title>");
    const scripts = [...html.matchAll(/<script src="([^"]+)"/g)].map(([, src]) => src as string);
    expect(scripts).toEqual([
      expect.stringMatching(/^\/static\/api-reference-\d+\.\d+\.\d+\.js$/),
      "/static/api-reference-init.js",
    ]);
    const config = JSON.parse(
      /<script id="reference-config" type="application\/json">([^<]*)<\/script>/.exec(html)?.[1] ?? "",
    );
    expect(config).toMatchObject({
      url: "/api/v1/openapi.json",
      withDefaultFonts: false,
      telemetry: false,
      persistAuth: false,
    });

    for (const src of scripts) {
      const script = await server.request(src);
      expect(script.status, src).toBe(200);
      expect(script.headers.get("content-type"), src).toBe("text/javascript; charset=utf-8");
    }
    const bundle = await server.request(scripts[0] as string, { headers: { "accept-encoding": "gzip" } });
    expect(bundle.headers.get("content-encoding")).toBe("gzip");
    expect(bundle.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });

  it("reads no Gatehouse headers", async () => {
    const res = await server.request("/api/v1/docs", { headers: { "x-stack-access-type": "root" } });
    expect(res.status).toBe(200);
  });
});

describe("GET /", () => {
  it("is a page naming the instance, with links to the dashboard, the API reference and /health", async () => {
    const res = await server.request("/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await res.text();
    expect(html).toContain(server.deps.baseUrl);
    for (const href of ["/dashboard/", "/api/v1/docs", "/api/v1/openapi.json", "/health?db=1"]) {
      expect(html).toContain(`href="${href}"`);
    }
  });

  it("leaves other unknown paths not found", async () => {
    expect((await server.request("/nothing-here")).status).toBe(404);
  });
});

describe("GET /favicon.ico and /favicon.svg", () => {
  it("answer the Gatehouse icon", async () => {
    for (const path of ["/favicon.ico", "/favicon.svg"]) {
      const res = await server.request(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type"), path).toBe("image/svg+xml");
      expect(await res.text(), path).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    }
  });
});
