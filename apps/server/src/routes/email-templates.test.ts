// E-mail administration over HTTP (WIRE.md §4.15, §4.18 `GET /internal/emails`, §5.2): listing, reading, editing and
// resetting templates, the unknown-variable check, the edited template in every kind of e-mail the server sends
// (values escaped), previews, the sign-in invitation, the per-project development inbox, the test e-mail against a
// real SMTP peer, and the access matrix.
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "../db/client.ts";
import {
  DEFAULT_EMAIL_TEMPLATES,
  EMAIL_TEMPLATE_TYPES,
  EMAIL_TEMPLATE_VARIABLES,
} from "../email/templates.ts";
import { firstLink } from "../email/worker.ts";
import { expectJson, expectKnownError, expectTextError } from "../testing/expect-error.ts";
import { type SmtpPeer, startSmtpPeer } from "../testing/smtp-peer.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
  uniqueEmail,
  uniqueIp,
} from "../testing/test-server.ts";

const TEMPLATES = "/api/v1/email-templates";
const INVITE = "/api/v1/internal/send-sign-in-invitation";
const TEST_EMAIL = "/api/v1/internal/send-test-email";
const EMAILS = "/api/v1/internal/emails";
const SEND_RESET = "/api/v1/auth/password/send-reset-code";
const SEND_OTP = "/api/v1/auth/otp/send-sign-in-code";
const SIGN_UP = "/api/v1/auth/password/sign-up";
const TEAM_INVITE = "/api/v1/team-invitations/send-code";

const PROJECT_NAME = "Acme & <Sons>";
const DOMAIN = "https://app.example.com";
const CALLBACK = `${DOMAIN}/handler/sign-in?from=invite&x=1`;
const PASSWORD = "correct horse battery";
/** A display name with markup, quotes and a line break: escaped in HTML, kept (minus the break) in subjects. */
const NASTY_NAME = `<b>"Tom" & 'Jerry'</b>\nBcc: x@example.com`;
const NASTY_HTML = "&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;\nBcc: x@example.com";
const NASTY_SUBJECT = `<b>"Tom" & 'Jerry'</b>Bcc: x@example.com`;
const PROJECT_HTML = "Acme &amp; &lt;Sons&gt;";

type AccessType = "client" | "server" | "admin";
type Template = { type: string; subject: string; content: string; is_default: boolean };
type Email = { to: string; subject: string; html: string | null; text: string | null; template_type: string };

let server: TestServer;
let keys: ProjectKeys;

const projectConfig = {
  magic_link_enabled: true,
  domains: [{ domain: DOMAIN, handler_path: "/handler" }],
};
const newProject = async (displayName = PROJECT_NAME) =>
  (await server.createProject({ displayName, config: projectConfig })).keys;

beforeAll(async () => {
  server = await createTestServer();
  keys = await newProject();
});
afterAll(async () => {
  await server?.deps.emailWorker.stop();
  await server?.close();
});

function call(
  method: string,
  path: string,
  body?: unknown,
  type: AccessType | null = "admin",
  k: ProjectKeys = keys,
  headers: Record<string, string> = {},
) {
  return server.request(path, {
    method,
    headers: {
      ...(type ? accessHeaders(type, k) : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      "x-forwarded-for": uniqueIp(),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const getTemplate = async (type: string, k = keys) =>
  expectJson<Template>(await call("GET", `${TEMPLATES}/${type}`, undefined, "admin", k));
const patchTemplate = async (type: string, body: unknown, k = keys) =>
  expectJson<Template>(await call("PATCH", `${TEMPLATES}/${type}`, body, "admin", k));
const resetTemplate = async (type: string, k = keys) =>
  expectJson(await call("DELETE", `${TEMPLATES}/${type}`, {}, "admin", k));
const defaultOf = (type: keyof typeof DEFAULT_EMAIL_TEMPLATES): Template => ({
  type,
  ...DEFAULT_EMAIL_TEMPLATES[type],
  is_default: true,
});

/** The project's e-mails to `to`, newest first, as the development inbox lists them. */
async function inbox(to: string, k = keys): Promise<Email[]> {
  const res = await call("GET", `${EMAILS}?to=${encodeURIComponent(to)}`, undefined, "admin", k);
  return (await expectJson<{ items: Email[] }>(res)).items;
}

async function onlyEmail(to: string, k = keys): Promise<Email> {
  const emails = await inbox(to, k);
  expect(emails).toHaveLength(1);
  return emails[0] as Email;
}

/** A user with a password and this display name, created by the server API. */
async function createUser(email: string, displayName: string | null, k = keys): Promise<string> {
  const res = await call(
    "POST",
    "/api/v1/users",
    { primary_email: email, primary_email_auth_enabled: true, password: PASSWORD, display_name: displayName },
    "server",
    k,
  );
  return (await expectJson<{ id: string }>(res, 201)).id;
}

describe("GET /email-templates", () => {
  it("lists the defaults in the order of §5.2, then the new-device notice [GO]", async () => {
    const k = await newProject();
    const body = await expectJson<{ items: Template[]; is_paginated: boolean }>(
      await call("GET", TEMPLATES, undefined, "admin", k),
    );
    expect(body).toEqual({ is_paginated: false, items: EMAIL_TEMPLATE_TYPES.map(defaultOf) });
    expect(body.items.map((t) => t.subject)).toEqual([
      "Verify your email at {{ projectDisplayName }}",
      "Reset your password at {{ projectDisplayName }}",
      "Sign in to {{ projectDisplayName }}: Your code is {{ otp }}",
      "You have been invited to join {{ teamDisplayName }}",
      "You have been invited to sign in to {{ projectDisplayName }}",
      "New sign-in to {{ projectDisplayName }}",
    ]);
  });

  it("shows an edited template among the defaults, for its own project only", async () => {
    const k = await newProject();
    const other = await newProject();
    await patchTemplate("magic_link", { subject: "Code {{ otp }}" }, k);
    const { items } = await expectJson<{ items: Template[] }>(
      await call("GET", TEMPLATES, undefined, "admin", k),
    );
    expect(items).toEqual(
      EMAIL_TEMPLATE_TYPES.map((type) =>
        type === "magic_link"
          ? { ...defaultOf(type), subject: "Code {{ otp }}", is_default: false }
          : defaultOf(type),
      ),
    );
    const untouched = await expectJson<{ items: Template[] }>(
      await call("GET", TEMPLATES, undefined, "admin", other),
    );
    expect(untouched.items).toEqual(EMAIL_TEMPLATE_TYPES.map(defaultOf));
  });
});

describe("GET /email-templates/{type}", () => {
  it("answers each type's default until it is edited", async () => {
    const k = await newProject();
    for (const type of EMAIL_TEMPLATE_TYPES) expect(await getTemplate(type, k)).toEqual(defaultOf(type));
  });

  it("rejects an unknown type", async () => {
    await expectKnownError(await call("GET", `${TEMPLATES}/welcome`), "SCHEMA_ERROR");
    await expectKnownError(await call("GET", `${TEMPLATES}/EMAIL_VERIFICATION`), "SCHEMA_ERROR");
  });
});

describe("PATCH /email-templates/{type}", () => {
  it("edits the subject and the content separately, keeping the other field", async () => {
    const k = await newProject();
    const subjectOnly = await patchTemplate(
      "password_reset",
      { subject: "New password for {{userDisplayName}}" },
      k,
    );
    expect(subjectOnly).toEqual({
      type: "password_reset",
      subject: "New password for {{userDisplayName}}",
      content: DEFAULT_EMAIL_TEMPLATES.password_reset.content,
      is_default: false,
    });
    const contentOnly = await patchTemplate(
      "password_reset",
      { content: "<p>{{ passwordResetLink }}</p>" },
      k,
    );
    expect(contentOnly).toEqual({
      type: "password_reset",
      subject: "New password for {{userDisplayName}}",
      content: "<p>{{ passwordResetLink }}</p>",
      is_default: false,
    });
    expect(await getTemplate("password_reset", k)).toEqual(contentOnly);
    // Other types are untouched.
    expect(await getTemplate("email_verification", k)).toEqual(defaultOf("email_verification"));
  });

  it("marks a template edited even when the body changes nothing", async () => {
    const k = await newProject();
    const edited = { ...defaultOf("team_invitation"), is_default: false };
    expect(await patchTemplate("team_invitation", {}, k)).toEqual(edited);
    const res = await server.request(`${TEMPLATES}/team_invitation`, {
      method: "PATCH",
      headers: { ...accessHeaders("admin", k), "x-forwarded-for": uniqueIp() },
    });
    expect(await expectJson(res)).toEqual(edited);
    expect(await getTemplate("team_invitation", k)).toEqual(edited);
  });

  it("accepts a 500-character subject, a 256 KiB content, and placeholder-like text outside the syntax", async () => {
    const k = await newProject();
    const subject = "s".repeat(500);
    const content = "x".repeat(256 * 1024);
    expect(await patchTemplate("magic_link", { subject, content }, k)).toMatchObject({ subject, content });
    const literal = "{{ 1a }} {{ a-b }} {{x} {{}} {{\totp}} { { nope } }";
    expect(await patchTemplate("magic_link", { subject: literal, content: literal }, k)).toMatchObject({
      subject: literal,
      content: literal,
    });
  });

  it("answers SCHEMA_ERROR for bad fields and keeps the template", async () => {
    const k = await newProject();
    const bodies = [
      { subject: "s".repeat(501) },
      { subject: "two\nlines" },
      { subject: "carriage\rreturn" },
      { subject: "separator\u2028here" },
      { content: "x".repeat(256 * 1024 + 1) },
      { subject: 5 },
      { content: null },
      { subject: "ok", unknown: true },
      { type: "magic_link" },
    ];
    for (const body of bodies) {
      await expectKnownError(
        await call("PATCH", `${TEMPLATES}/magic_link`, body, "admin", k),
        "SCHEMA_ERROR",
      );
    }
    await expectKnownError(
      await call("PATCH", `${TEMPLATES}/welcome`, { subject: "Hi" }, "admin", k),
      "SCHEMA_ERROR",
    );
    const body = await expectKnownError(
      await call("PATCH", `${TEMPLATES}/magic_link`, { subject: "ok", extra: 1 }, "admin", k),
      "SCHEMA_ERROR",
    );
    expect(body.message).toBe(
      `Request validation failed on PATCH ${TEMPLATES}/magic_link:\n  - body contains unknown properties: extra`,
    );
    expect(await getTemplate("magic_link", k)).toEqual(defaultOf("magic_link"));
  });

  it("rejects a placeholder naming a variable the type does not have", async () => {
    const k = await newProject();
    const cases: [string, Record<string, string>, string][] = [
      ["password_reset", { subject: "Your code is {{ otp }}" }, "otp"],
      ["password_reset", { content: "<p>{{passwordResetLink}} {{ magicLink }}</p>" }, "magicLink"],
      ["email_verification", { content: "{{ teamDisplayName }}" }, "teamDisplayName"],
      ["magic_link", { subject: "{{ projectdisplayname }}" }, "projectdisplayname"],
      ["team_invitation", { content: "{{ constructor }}" }, "constructor"],
      // The subject is checked before the content.
      ["sign_in_invitation", { subject: "{{ first }}", content: "{{ second }}" }, "first"],
    ];
    for (const [type, body, name] of cases) {
      await expectTextError(
        await call("PATCH", `${TEMPLATES}/${type}`, body, "admin", k),
        400,
        `Unknown template variable: ${name}`,
      );
      expect(await getTemplate(type, k)).toEqual(defaultOf(type as "magic_link"));
    }
    // Every variable of its own type is fine.
    const all =
      "{{ projectDisplayName }} {{ userDisplayName }} {{ signInInvitationLink }} {{ teamDisplayName }}";
    expect(await patchTemplate("sign_in_invitation", { subject: all, content: all }, k)).toMatchObject({
      subject: all,
      content: all,
      is_default: false,
    });
  });
});

describe("DELETE /email-templates/{type}", () => {
  it("puts the template back to its default, and is harmless on a default", async () => {
    const k = await newProject();
    await patchTemplate(
      "email_verification",
      { subject: "Verify!", content: "<p>{{ emailVerificationLink }}</p>" },
      k,
    );
    expect(await resetTemplate("email_verification", k)).toEqual({ success: true });
    expect(await getTemplate("email_verification", k)).toEqual(defaultOf("email_verification"));
    expect(await resetTemplate("email_verification", k)).toEqual({ success: true });
    // No body at all is accepted too (the SDK sends `{}`).
    const res = await server.request(`${TEMPLATES}/email_verification`, {
      method: "DELETE",
      headers: { ...accessHeaders("admin", k), "x-forwarded-for": uniqueIp() },
    });
    expect(await expectJson(res)).toEqual({ success: true });
  });

  it("rejects a body with fields and an unknown type", async () => {
    await expectKnownError(await call("DELETE", `${TEMPLATES}/magic_link`, { subject: "x" }), "SCHEMA_ERROR");
    await expectKnownError(await call("DELETE", `${TEMPLATES}/welcome`, {}), "SCHEMA_ERROR");
  });
});

describe("the edited template in the e-mails the server sends", () => {
  it("password reset: edited subject and content with escaped values, then the default again after a reset", async () => {
    const k = await newProject();
    const email = uniqueEmail("reset");
    await createUser(email, NASTY_NAME, k);
    await patchTemplate(
      "password_reset",
      {
        subject: "Reset for {{ userDisplayName }} at {{projectDisplayName}}",
        content:
          '<p>Hi {{ userDisplayName }} of {{ projectDisplayName }}</p><a href="{{ passwordResetLink }}">Go</a>',
      },
      k,
    );
    const callback = `${DOMAIN}/handler/password-reset?a=1&b=2`;
    await expectJson(await call("POST", SEND_RESET, { email, callback_url: callback }, "client", k));
    const mail = await onlyEmail(email, k);
    expect(mail.template_type).toBe("password_reset");
    expect(mail.subject).toBe(`Reset for ${NASTY_SUBJECT} at ${PROJECT_NAME}`);
    const link = firstLink(mail.text);
    expect(link).toMatch(/^https:\/\/app\.example\.com\/handler\/password-reset\?a=1&b=2&code=[0-9a-z]{45}$/);
    expect(mail.html).toBe(
      `<p>Hi ${NASTY_HTML} of ${PROJECT_HTML}</p><a href="${(link as string).replace(/&/g, "&amp;")}">Go</a>`,
    );
    // The text part collapses the name's line break like any other whitespace.
    expect(mail.text).toBe(`Hi ${NASTY_SUBJECT.replace("</b>", "</b> ")} of ${PROJECT_NAME}\n\nGo (${link})`);

    await resetTemplate("password_reset", k);
    await expectJson(await call("POST", SEND_RESET, { email, callback_url: callback }, "client", k));
    const [latest] = await inbox(email, k);
    expect(latest?.subject).toBe(`Reset your password at ${PROJECT_NAME}`);
    expect(latest?.html).toContain("Reset password</a>");
  });

  it("magic link: the OTP and the link in an edited template", async () => {
    const k = await newProject();
    const email = uniqueEmail("otp");
    await patchTemplate(
      "magic_link",
      { subject: "{{ otp }} is your code", content: "<p>{{ otp }}</p><p>{{ magicLink }}</p>" },
      k,
    );
    const { nonce } = await expectJson<{ nonce: string }>(
      await call(
        "POST",
        SEND_OTP,
        { email, callback_url: `${DOMAIN}/handler/magic-link-callback` },
        "client",
        k,
      ),
    );
    const mail = await onlyEmail(email, k);
    const otp = mail.subject.match(/^([0-9A-Z]{6}) is your code$/)?.[1];
    expect(otp).toBeDefined();
    expect(mail.html).toBe(
      `<p>${otp}</p><p>${DOMAIN}/handler/magic-link-callback?code=${(otp as string).toLowerCase()}${nonce}</p>`,
    );
  });

  it("e-mail verification: the edited template on sign-up", async () => {
    const k = await newProject();
    const email = uniqueEmail("verify");
    await patchTemplate(
      "email_verification",
      {
        subject: "Confirm at {{ projectDisplayName }}",
        content: "<p>[{{ userDisplayName }}] {{ emailVerificationLink }}</p>",
      },
      k,
    );
    await expectJson(
      await call(
        "POST",
        SIGN_UP,
        { email, password: PASSWORD, verification_callback_url: `${DOMAIN}/handler/email-verification` },
        "client",
        k,
      ),
    );
    const mail = await onlyEmail(email, k);
    expect(mail.template_type).toBe("email_verification");
    expect(mail.subject).toBe(`Confirm at ${PROJECT_NAME}`);
    expect(mail.html).toMatch(
      /^<p>\[\] https:\/\/app\.example\.com\/handler\/email-verification\?code=[0-9a-z]{45}<\/p>$/,
    );
  });

  it("team invitation: the edited template with the team's escaped name", async () => {
    const k = await newProject();
    const project = await server.deps.projects.find(k.projectId);
    if (!project) throw new Error("no project");
    const team = await inTransaction(server.deps.db, (tx) =>
      server.deps.teams.create(tx, project, { displayName: "Rockets & <Co>" }),
    );
    await patchTemplate(
      "team_invitation",
      {
        subject: "Join {{ teamDisplayName }}",
        content: "<p>{{ teamDisplayName }}: {{ teamInvitationLink }}</p>",
      },
      k,
    );
    const email = uniqueEmail("invitee");
    await expectJson(
      await call(
        "POST",
        TEAM_INVITE,
        { team_id: team.id, email, callback_url: `${DOMAIN}/handler/team-invitation` },
        "server",
        k,
      ),
    );
    const mail = await onlyEmail(email, k);
    expect(mail.subject).toBe("Join Rockets & <Co>");
    expect(mail.html).toMatch(
      /^<p>Rockets &amp; &lt;Co&gt;: https:\/\/app\.example\.com\/handler\/team-invitation\?code=[0-9a-z]{45}<\/p>$/,
    );
  });

  it("leaves other projects on their own templates", async () => {
    const edited = await newProject();
    const plain = await newProject("Plain");
    await patchTemplate("magic_link", { subject: "Edited {{ otp }}" }, edited);
    const email = uniqueEmail("both");
    const body = { email, callback_url: `${DOMAIN}/handler/magic-link-callback` };
    await expectJson(await call("POST", SEND_OTP, body, "client", edited));
    await expectJson(await call("POST", SEND_OTP, body, "client", plain));
    expect((await onlyEmail(email, edited)).subject).toMatch(/^Edited [0-9A-Z]{6}$/);
    expect((await onlyEmail(email, plain)).subject).toMatch(/^Sign in to Plain: Your code is [0-9A-Z]{6}$/);
  });
});

describe("POST /email-templates/{type}/preview", () => {
  const preview = (type: string, body?: unknown, k = keys) =>
    call("POST", `${TEMPLATES}/${type}/preview`, body, "admin", k);

  it("renders the default with sample values", async () => {
    const k = await newProject();
    const out = await expectJson<{ subject: string; html: string; text: string }>(
      await preview("magic_link", {}, k),
    );
    expect(out.subject).toBe(`Sign in to ${PROJECT_NAME}: Your code is ABC123`);
    expect(out.html).toContain(`Sign in to ${PROJECT_HTML}`);
    expect(out.html).toContain(">ABC123</p>");
    expect(out.html).toContain('href="https://example.com/handler/magic-link-callback?code=sample"');
    expect(out.html).not.toContain("{{");
    expect(out.text).toContain("ABC123");
    expect(out.text).toContain("https://example.com/handler/magic-link-callback?code=sample");
  });

  it("renders a draft without saving it, every variable with a sample value, escaped in HTML only", async () => {
    const k = await newProject();
    const draft = {
      subject: "{{ projectDisplayName }} / {{ userDisplayName }} / {{ teamDisplayName }}",
      content:
        "<p>{{ projectDisplayName }}|{{ userDisplayName }}|{{ teamDisplayName }}|{{ teamInvitationLink }}</p>",
    };
    const out = await expectJson(await preview("team_invitation", draft, k));
    expect(out).toEqual({
      subject: `${PROJECT_NAME} / Jane Doe / Example Team`,
      html: `<p>${PROJECT_HTML}|Jane Doe|Example Team|https://example.com/handler/team-invitation?code=sample</p>`,
      text: `${PROJECT_NAME}|Jane Doe|Example Team|https://example.com/handler/team-invitation?code=sample`,
    });
    expect(await getTemplate("team_invitation", k)).toEqual(defaultOf("team_invitation"));
  });

  it("has a sample value for every variable of every type", async () => {
    const expected: Record<string, string[]> = {
      email_verification: [
        PROJECT_NAME,
        "Jane Doe",
        "https://example.com/handler/email-verification?code=sample",
      ],
      password_reset: [PROJECT_NAME, "Jane Doe", "https://example.com/handler/password-reset?code=sample"],
      magic_link: [
        PROJECT_NAME,
        "Jane Doe",
        "https://example.com/handler/magic-link-callback?code=sample",
        "ABC123",
      ],
      team_invitation: [
        PROJECT_NAME,
        "Jane Doe",
        "https://example.com/handler/team-invitation?code=sample",
        "Example Team",
      ],
      sign_in_invitation: [PROJECT_NAME, "Jane Doe", "https://example.com/handler/sign-in", ""],
      new_device_notice: [
        PROJECT_NAME,
        "Jane Doe",
        "Tue, 01 Dec 2026 09:30:00 GMT",
        "Firefox",
        "Linux",
        "203.0.113.7",
      ],
    };
    for (const type of EMAIL_TEMPLATE_TYPES) {
      const subject = EMAIL_TEMPLATE_VARIABLES[type].map((name) => `{{ ${name} }}`).join("|");
      const out = await expectJson<{ subject: string }>(await preview(type, { subject }));
      expect(out.subject.split("|"), type).toEqual(expected[type]);
    }
  });

  it("uses the saved template for the fields the draft leaves out", async () => {
    const k = await newProject();
    await patchTemplate(
      "password_reset",
      { subject: "Saved {{ userDisplayName }}", content: "<p>saved</p>" },
      k,
    );
    expect(await expectJson(await preview("password_reset", undefined, k))).toEqual({
      subject: "Saved Jane Doe",
      html: "<p>saved</p>",
      text: "saved",
    });
    expect(
      await expectJson(await preview("password_reset", { content: "<b>{{ passwordResetLink }}</b>" }, k)),
    ).toEqual({
      subject: "Saved Jane Doe",
      html: "<b>https://example.com/handler/password-reset?code=sample</b>",
      text: "https://example.com/handler/password-reset?code=sample",
    });
  });

  it("shows the sign-in invitation's team name empty, as it is sent", async () => {
    const out = await expectJson<{ subject: string }>(
      await preview("sign_in_invitation", { subject: "[{{ teamDisplayName }}] {{ signInInvitationLink }}" }),
    );
    expect(out.subject).toBe("[] https://example.com/handler/sign-in");
  });

  it("applies the unknown-variable check and the field rules", async () => {
    await expectTextError(
      await preview("email_verification", { content: "{{ otp }}" }),
      400,
      "Unknown template variable: otp",
    );
    await expectKnownError(await preview("email_verification", { subject: "a\nb" }), "SCHEMA_ERROR");
    await expectKnownError(await preview("email_verification", { html: "x" }), "SCHEMA_ERROR");
    await expectKnownError(await preview("welcome", {}), "SCHEMA_ERROR");
  });
});

describe("POST /internal/send-sign-in-invitation", () => {
  it("e-mails the default invitation whose link is the callback URL itself", async () => {
    const k = await newProject();
    const email = uniqueEmail("invited");
    expect(
      await expectJson(await call("POST", INVITE, { email, callback_url: CALLBACK }, "admin", k)),
    ).toEqual({
      success: true,
    });
    const mail = await onlyEmail(email, k);
    expect(mail).toMatchObject({
      to: email,
      template_type: "sign_in_invitation",
      subject: `You have been invited to sign in to ${PROJECT_NAME}`,
    });
    expect(firstLink(mail.text)).toBe(CALLBACK);
    expect(mail.html).toContain(`href="${CALLBACK.replace("&", "&amp;")}"`);
    expect(mail.html).not.toContain("code=");
  });

  it("uses the edited template, with the recipient's name when a user signs in with the address", async () => {
    const k = await newProject();
    await patchTemplate(
      "sign_in_invitation",
      {
        subject: "Hi {{ userDisplayName }}, join {{ projectDisplayName }}{{ teamDisplayName }}",
        content: '<a href="{{ signInInvitationLink }}">{{ userDisplayName }}</a>',
      },
      k,
    );
    const known = uniqueEmail("known");
    await createUser(known, NASTY_NAME, k);
    const stranger = uniqueEmail("stranger");
    for (const email of [known, stranger]) {
      await expectJson(await call("POST", INVITE, { email, callback_url: CALLBACK }, "admin", k));
    }
    const toKnown = await onlyEmail(known, k);
    expect(toKnown.subject).toBe(`Hi ${NASTY_SUBJECT}, join ${PROJECT_NAME}`);
    expect(toKnown.html).toBe(`<a href="${CALLBACK.replace("&", "&amp;")}">${NASTY_HTML}</a>`);
    const toStranger = await onlyEmail(stranger, k);
    expect(toStranger.subject).toBe(`Hi , join ${PROJECT_NAME}`);
    expect(toStranger.html).toBe(`<a href="${CALLBACK.replace("&", "&amp;")}"></a>`);
  });

  it("refuses an untrusted callback URL and queues nothing", async () => {
    const k = await newProject();
    const email = uniqueEmail("untrusted");
    for (const callback_url of ["https://evil.example.com/handler", "https://user@app.example.com/handler"]) {
      await expectKnownError(
        await call("POST", INVITE, { email, callback_url }, "admin", k),
        "REDIRECT_URL_NOT_WHITELISTED",
      );
    }
    // Localhost is trusted while allow_localhost is on (the default).
    await expectJson(
      await call("POST", INVITE, { email, callback_url: "http://localhost:3000/x" }, "admin", k),
    );
    expect((await inbox(email, k)).map((m) => firstLink(m.text))).toEqual(["http://localhost:3000/x"]);
  });

  it("answers SCHEMA_ERROR for bad bodies", async () => {
    const bodies = [
      {},
      { email: "not-an-email", callback_url: CALLBACK },
      { email: "a@example.com" },
      { email: "a@example.com", callback_url: "javascript:alert(1)" },
      { email: "a@example.com", callback_url: "/relative" },
      { email: "a@example.com", callback_url: CALLBACK, team_id: "x" },
    ];
    for (const body of bodies) await expectKnownError(await call("POST", INVITE, body), "SCHEMA_ERROR");
  });
});

describe("GET /internal/emails is the caller's project's inbox", () => {
  it("lists each project's own e-mails only, with the admin key or an owner's admin access token", async () => {
    const a = await newProject("Project A");
    const b = await newProject("Project B");
    const email = uniqueEmail("shared-recipient");
    await expectJson(await call("POST", INVITE, { email, callback_url: CALLBACK }, "admin", a));
    await expectJson(await call("POST", INVITE, { email, callback_url: CALLBACK }, "admin", b));
    await expectJson(
      await call("POST", INVITE, { email: uniqueEmail("only-a"), callback_url: CALLBACK }, "admin", a),
    );

    const listA = await expectJson<{ items: Email[] }>(await call("GET", EMAILS, undefined, "admin", a));
    expect(listA.items.map((m) => m.subject)).toEqual([
      "You have been invited to sign in to Project A",
      "You have been invited to sign in to Project A",
    ]);
    const listB = await expectJson<{ items: Email[] }>(await call("GET", EMAILS, undefined, "admin", b));
    expect(listB.items.map((m) => [m.to, m.subject])).toEqual([
      [email, "You have been invited to sign in to Project B"],
    ]);

    // The admin key of B does not open A.
    await expectKnownError(
      await call("GET", EMAILS, undefined, "admin", { ...b, projectId: a.projectId }),
      "INVALID_SUPER_SECRET_ADMIN_KEY",
    );

    // An admin access token of A's owner team reads A's inbox, and is refused on B.
    const internal = await server.deps.projects.find("internal");
    if (!internal) throw new Error("no internal project");
    const owner = await server.signIn("internal", { email: uniqueEmail("owner") });
    await inTransaction(server.deps.db, async (tx) => {
      const team = await server.deps.teams.create(tx, internal, { displayName: "Owners of A" }, owner.userId);
      await server.deps.projectsRepo.setOwnerTeam(tx, a.projectId, team.id);
    });
    const withToken = (projectId: string) =>
      server.request(EMAILS, {
        headers: {
          "x-stack-access-type": "admin",
          "x-stack-project-id": projectId,
          "x-stack-admin-access-token": owner.accessToken,
          "x-forwarded-for": uniqueIp(),
        },
      });
    const viaToken = await expectJson<{ items: Email[] }>(await withToken(a.projectId));
    expect(viaToken.items.map((m) => m.subject)).toEqual(listA.items.map((m) => m.subject));
    await expectKnownError(await withToken(b.projectId), "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN");

    // The same token edits A's templates.
    const patched = await server.request(`${TEMPLATES}/magic_link`, {
      method: "PATCH",
      headers: {
        "x-stack-access-type": "admin",
        "x-stack-project-id": a.projectId,
        "x-stack-admin-access-token": owner.accessToken,
        "content-type": "application/json",
        "x-forwarded-for": uniqueIp(),
      },
      body: JSON.stringify({ subject: "By token {{ otp }}" }),
    });
    expect(await expectJson<Template>(patched)).toMatchObject({
      subject: "By token {{ otp }}",
      is_default: false,
    });
    expect((await getTemplate("magic_link", b)).is_default).toBe(true);
  });
});

describe("POST /internal/send-test-email", () => {
  let peer: SmtpPeer;
  beforeAll(async () => {
    peer = await startSmtpPeer();
  });
  afterAll(async () => {
    await peer?.close();
  });

  const config = (port: number) => ({
    host: "127.0.0.1",
    port,
    username: "tester",
    password: "secret",
    sender_name: 'Acme "Mail"',
    sender_email: "noreply@acme.test",
  });

  /** A port with nothing listening: bound once, then released. */
  async function closedPort(): Promise<number> {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const address = probe.address();
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    if (address === null || typeof address === "string") throw new Error("no port");
    return address.port;
  }

  it("sends one e-mail at once through the given SMTP server, not through the outbox", async () => {
    const recipient = uniqueEmail("smtp-test");
    const res = await call("POST", TEST_EMAIL, {
      recipient_email: recipient,
      email_config: config(peer.port),
    });
    expect(await expectJson(res)).toEqual({ success: true });
    const received = peer.to(recipient);
    expect(received).toHaveLength(1);
    const { mail, user } = received[0] as (typeof received)[number];
    expect(user).toBe("tester");
    expect(mail.from?.value).toEqual([{ name: 'Acme "Mail"', address: "noreply@acme.test" }]);
    expect(mail.subject).toBe(`Test e-mail from ${PROJECT_NAME}`);
    expect(mail.text?.trim()).toBe(
      `This is a test e-mail sent by Gatehouse for the project ${PROJECT_NAME}. ` +
        "If you received it, the e-mail server settings work.",
    );
    expect(await inbox(recipient)).toEqual([]);
  });

  it("accepts the config with its type", async () => {
    const recipient = uniqueEmail("smtp-typed");
    const email_config = { type: "standard", ...config(peer.port) };
    expect(
      await expectJson(await call("POST", TEST_EMAIL, { recipient_email: recipient, email_config })),
    ).toEqual({
      success: true,
    });
    expect(peer.to(recipient)).toHaveLength(1);
  });

  it("answers success false with the reason when nothing listens on the port", async () => {
    const port = await closedPort();
    const res = await call("POST", TEST_EMAIL, {
      recipient_email: uniqueEmail("nobody"),
      email_config: config(port),
    });
    const body = await expectJson<{ success: boolean; error_message: string }>(res);
    expect(body).toEqual({ success: false, error_message: expect.stringContaining("ECONNREFUSED") });
    expect(body.error_message).toContain(String(port));
  });

  it("answers success false when the server refuses the message", async () => {
    const recipient = uniqueEmail("refused");
    peer.state.reject = true;
    try {
      const res = await call("POST", TEST_EMAIL, {
        recipient_email: recipient,
        email_config: config(peer.port),
      });
      expect(await expectJson(res)).toEqual({
        success: false,
        error_message: expect.stringContaining("451 mailbox temporarily unavailable"),
      });
    } finally {
      peer.state.reject = false;
    }
    expect(peer.to(recipient)).toHaveLength(0);
  });

  it("answers SCHEMA_ERROR for bad bodies", async () => {
    const good = config(peer.port);
    const { sender_email: _omitted, ...incomplete } = good;
    const bodies = [
      {},
      { recipient_email: "a@example.com" },
      { recipient_email: "nope", email_config: good },
      { recipient_email: "a@example.com", email_config: incomplete },
      { recipient_email: "a@example.com", email_config: { ...good, port: 0 } },
      { recipient_email: "a@example.com", email_config: { ...good, port: 65536 } },
      { recipient_email: "a@example.com", email_config: { ...good, port: "25" } },
      { recipient_email: "a@example.com", email_config: { ...good, host: "" } },
      { recipient_email: "a@example.com", email_config: { ...good, extra: 1 } },
      { recipient_email: "a@example.com", email_config: { type: "shared" } },
      { recipient_email: "a@example.com", email_config: good, extra: 1 },
    ];
    for (const body of bodies) await expectKnownError(await call("POST", TEST_EMAIL, body), "SCHEMA_ERROR");
  });
});

describe("access", () => {
  const endpoints: [string, string, unknown][] = [
    ["GET", TEMPLATES, undefined],
    ["GET", `${TEMPLATES}/magic_link`, undefined],
    ["PATCH", `${TEMPLATES}/magic_link`, { subject: "x" }],
    ["DELETE", `${TEMPLATES}/magic_link`, {}],
    ["POST", `${TEMPLATES}/magic_link/preview`, {}],
    ["POST", INVITE, { email: "a@example.com", callback_url: CALLBACK }],
    ["POST", TEST_EMAIL, { recipient_email: "a@example.com", email_config: { type: "shared" } }],
    ["GET", EMAILS, undefined],
  ];

  it("refuses client and server callers and unauthenticated requests", async () => {
    const k = await newProject();
    for (const [method, path, body] of endpoints) {
      for (const type of ["client", "server"] as const) {
        await expectKnownError(await call(method, path, body, type, k), "INSUFFICIENT_ACCESS_TYPE", {
          actual_access_type: type,
          allowed_access_types: ["admin"],
        });
      }
      await expectKnownError(await call(method, path, body, null, k), "ACCESS_TYPE_REQUIRED");
      await expectKnownError(
        await call(method, path, body, "admin", { ...k, sak: `sak_${"0".repeat(45)}` }),
        "INVALID_SUPER_SECRET_ADMIN_KEY",
      );
    }
    // Nothing changed and nothing was sent.
    expect(await getTemplate("magic_link", k)).toEqual(defaultOf("magic_link"));
    expect(await inbox("a@example.com", k)).toEqual([]);
  });
});
