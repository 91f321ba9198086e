// The built-in e-mails in the recipient's language: every locale's templates keep English's placeholders, and over
// HTTP a user's stored locale (client_metadata.locale) picks the language of the e-mails they get; without one, or
// for an address with no user, they are in the project's default_language, else English; a template the project
// edited is sent as written.
import { SUPPORTED_LOCALES } from "@gatehouse/contract/locales";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectJson, expectKnownError } from "../testing/expect-error.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
} from "../testing/test-server.ts";
import { DEFAULT_EMAIL_TEMPLATES, defaultEmailTemplates, EMAIL_TEMPLATE_TYPES } from "./templates.ts";

const placeholders = (text: string) =>
  [...text.matchAll(/\{\{ *(\w+) *\}\}/g)].map(([, name]) => name).sort();

describe("built-in templates in every locale", () => {
  it.each(SUPPORTED_LOCALES)("%s keeps English's placeholders in every subject and body", (locale) => {
    const templates = defaultEmailTemplates(locale);
    for (const type of EMAIL_TEMPLATE_TYPES) {
      expect(placeholders(templates[type].subject), `${type} subject`).toEqual(
        placeholders(DEFAULT_EMAIL_TEMPLATES[type].subject),
      );
      expect(placeholders(templates[type].content), `${type} content`).toEqual(
        placeholders(DEFAULT_EMAIL_TEMPLATES[type].content),
      );
    }
  });

  it("resolves tags as the pages do, and marks right-to-left bodies", () => {
    expect(defaultEmailTemplates("zh-TW").password_reset.subject).toBe(
      "重設你在 {{ projectDisplayName }} 的密碼",
    );
    expect(defaultEmailTemplates("zh-CN").password_reset.subject).toBe(
      "重置你在 {{ projectDisplayName }} 的密码",
    );
    expect(defaultEmailTemplates("pt").magic_link.content).toContain('lang="pt-BR" dir="ltr"');
    expect(defaultEmailTemplates("ar-EG").magic_link.content).toContain('lang="ar" dir="rtl"');
    expect(defaultEmailTemplates("sv").password_reset).toEqual(DEFAULT_EMAIL_TEMPLATES.password_reset);
  });
});

describe("e-mails in the recipient's stored locale", () => {
  const DOMAIN = "https://app.example.com";
  const CALLBACK = `${DOMAIN}/handler/password-reset`;
  let server: TestServer;
  let keys: ProjectKeys;

  beforeAll(async () => {
    server = await createTestServer();
    ({ keys } = await server.createProject({
      displayName: "Codes",
      config: { domains: [{ domain: DOMAIN, handler_path: "/handler" }] },
    }));
  });
  afterAll(async () => {
    await server.deps.emailWorker.stop();
    await server.close();
  });

  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    server.request(`/api/v1${path}`, {
      method,
      headers: { ...accessHeaders("client", keys), "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  /** Signs a user up with the stored locale (none when undefined) and returns the reset e-mail they then get. */
  async function resetEmailFor(locale: string | undefined) {
    const email = `${crypto.randomUUID()}@example.com`;
    const { access_token } = await expectJson<{ access_token: string }>(
      await call("POST", "/auth/password/sign-up", { email, password: "correct horse battery" }),
    );
    if (locale) {
      await expectJson(
        await call(
          "PATCH",
          "/users/me",
          { client_metadata: { locale } },
          { "x-stack-access-token": access_token },
        ),
      );
    }
    await expectJson(await call("POST", "/auth/password/send-reset-code", { email, callback_url: CALLBACK }));
    const inbox = await expectJson<{ items: { subject: string; html: string; template_type: string }[] }>(
      await server.request(`/api/v1/internal/emails?to=${encodeURIComponent(email)}`, {
        headers: accessHeaders("admin", keys),
      }),
    );
    const reset = inbox.items.find((item) => item.template_type === "password_reset");
    expect(reset).toBeDefined();
    return reset as { subject: string; html: string };
  }

  it("sends the built-in template in the user's stored locale", async () => {
    const german = await resetEmailFor("de");
    expect(german.subject).toBe("Setze dein Passwort bei Codes zurück");
    expect(german.html).toContain('lang="de"');
    expect(german.html).toContain("Passwort zurücksetzen");

    const arabic = await resetEmailFor("ar");
    expect(arabic.subject).toBe("إعادة تعيين كلمة المرور في Codes");
    expect(arabic.html).toContain('dir="rtl"');
  });

  it("sends English without a stored locale, and the project's edited template as written", async () => {
    expect((await resetEmailFor(undefined)).subject).toBe("Reset your password at Codes");
    await expectJson(
      await server.request("/api/v1/email-templates/password_reset", {
        method: "PATCH",
        headers: { ...accessHeaders("admin", keys), "content-type": "application/json" },
        body: JSON.stringify({ subject: "Nouveau mot de passe pour {{ projectDisplayName }}" }),
      }),
    );
    expect((await resetEmailFor("de")).subject).toBe("Nouveau mot de passe pour Codes");
    await server.request("/api/v1/email-templates/password_reset", {
      method: "DELETE",
      headers: accessHeaders("admin", keys),
    });
  });

  it("falls back to the project's default language, which only a supported locale can be", async () => {
    const setDefault = (default_language: unknown) =>
      server.request("/api/v1/projects/current", {
        method: "PATCH",
        headers: { ...accessHeaders("admin", keys), "content-type": "application/json" },
        body: JSON.stringify({ config: { default_language } }),
      });
    const view = await expectJson<{ config: { default_language: string | null } }>(await setDefault("fr"));
    expect(view.config.default_language).toBe("fr");
    expect((await resetEmailFor(undefined)).subject).toBe("Réinitialisez votre mot de passe sur Codes");
    expect((await resetEmailFor("de")).subject).toBe("Setze dein Passwort bei Codes zurück");

    await expectKnownError(await setDefault("xx"), "SCHEMA_ERROR");
    await expectJson(await setDefault(null));
    expect((await resetEmailFor(undefined)).subject).toBe("Reset your password at Codes");
  });
});
