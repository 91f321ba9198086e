// Stack Auth's TSX e-mail administration over HTTP: our templates under Stack's ids, our one theme, no drafts, the
// admin preview by template id, and EMAIL_RENDERING_ERROR for every TSX write (the server never runs sent code).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectJson, expectKnownError, expectTextError } from "../testing/expect-error.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
  uniqueIp,
} from "../testing/test-server.ts";

const MAGIC_LINK = "822687fe-8d0a-4467-a0d1-416b6e639478";
const THEME = "1df07ae6-abf3-4a40-83a5-a1a2cbe336ac";

let server: TestServer;
let keys: ProjectKeys;
beforeAll(async () => {
  server = await createTestServer();
  ({ keys } = await server.createProject({ displayName: "Tsx App" }));
});
afterAll(() => server.close());

const call = (method: string, path: string, body?: unknown, type: "server" | "admin" = "admin") =>
  server.request(`/api/v1${path}`, {
    method,
    headers: {
      ...accessHeaders(type, keys),
      "x-forwarded-for": uniqueIp(),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe("Stack's TSX e-mail administration", () => {
  it("lists Stack's five templates under Stack's ids and our new-device notice, with an edited one's HTML", async () => {
    await expectJson(await call("PATCH", "/email-templates/magic_link", { content: "<p>{{ otp }}</p>" }));
    const { templates } = await expectJson<{
      templates: { id: string; display_name: string; tsx_source: string }[];
    }>(await call("GET", "/internal/email-templates"));
    expect(templates.map((t) => t.display_name)).toEqual([
      "Email Verification",
      "Password Reset",
      "Magic Link/OTP",
      "Team Invitation",
      "Sign In Invitation",
      "New Device Sign-In",
    ]);
    expect(templates.find((t) => t.id === MAGIC_LINK)?.tsx_source).toBe("<p>{{ otp }}</p>");
    await expectKnownError(
      await call("GET", "/internal/email-templates", undefined, "server"),
      "INSUFFICIENT_ACCESS_TYPE",
    );
  });

  it("previews a template by Stack's id and refuses TSX sources", async () => {
    const preview = await expectJson(
      await call("POST", "/emails/render-email", { template_id: MAGIC_LINK, theme_id: THEME }),
    );
    expect(preview).toEqual({
      html: "<p>ABC123</p>",
      subject: "Sign in to Tsx App: Your code is ABC123",
      notification_category: "Transactional",
    });
    await expectKnownError(
      await call("POST", "/emails/render-email", {
        template_tsx_source: "export function EmailTemplate() {}",
      }),
      "EMAIL_RENDERING_ERROR",
    );
    await expectTextError(
      await call("POST", "/emails/render-email", { template_id: crypto.randomUUID() }),
      400,
      "No template found with given id",
    );
  });

  it("has one theme and no drafts, and answers every TSX write with EMAIL_RENDERING_ERROR", async () => {
    expect(await expectJson(await call("GET", "/internal/email-themes"))).toEqual({
      themes: [{ id: THEME, display_name: "Default Light" }],
    });
    expect(await expectJson(await call("GET", `/internal/email-themes/${THEME}`))).toMatchObject({
      id: THEME,
    });
    expect(await expectJson(await call("GET", "/internal/email-drafts"))).toEqual({ drafts: [] });
    const writes: [string, string, unknown][] = [
      ["POST", "/internal/email-templates", { display_name: "Welcome" }],
      ["PATCH", `/internal/email-templates/${MAGIC_LINK}`, { tsx_source: "x", theme_id: null }],
      ["DELETE", `/internal/email-templates/${MAGIC_LINK}`, undefined],
      ["POST", "/internal/email-themes", { display_name: "Dark" }],
      ["PATCH", `/internal/email-themes/${THEME}`, { tsx_source: "x" }],
      ["POST", "/internal/email-drafts", { display_name: "Draft", tsx_source: "x" }],
    ];
    for (const [method, path, body] of writes) {
      await expectKnownError(await call(method, path, body), "EMAIL_RENDERING_ERROR");
    }
    const unknown = crypto.randomUUID();
    await expectTextError(
      await call("PATCH", `/internal/email-templates/${unknown}`, { tsx_source: "x" }),
      404,
      "No template found with given id",
    );
    await expectTextError(
      await call("DELETE", `/internal/email-drafts/${unknown}`),
      404,
      "No draft found with given id",
    );
  });
});
