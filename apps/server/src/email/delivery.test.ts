// End-to-end e-mail delivery (WIRE.md §4.1, §4.2, §5.2) with a real SMTP peer (smtp-server in this process, mail parsed
// with mailparser): a reset e-mail and a magic_link e-mail travel over SMTP, and the received link and OTP work.

import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Received, type SmtpPeer, startSmtpPeer } from "../testing/smtp-peer.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
} from "../testing/test-server.ts";
import { firstLink } from "./worker.ts";

const DISPLAY_NAME = "Acme Delivery";
const DOMAIN = "https://app.example.com";
const PASSWORD = "correct horse battery";
const CODE = /^[0-9abcdefghjkmnpqrstvwxyz]{45}$/;

let server: TestServer;
let peer: SmtpPeer;
let keys: ProjectKeys;

beforeAll(async () => {
  server = await createTestServer();
  peer = await startSmtpPeer();
  keys = (
    await server.createProject({
      displayName: DISPLAY_NAME,
      config: {
        magic_link_enabled: true,
        domains: [{ domain: DOMAIN, handler_path: "/handler" }],
        email_config: {
          type: "standard",
          host: "127.0.0.1",
          port: peer.port,
          username: "u",
          password: "p",
          sender_name: "Acme",
          sender_email: "noreply@acme.test",
        },
      },
    })
  ).keys;
});
afterAll(async () => {
  await server?.deps.emailWorker.stop();
  await peer?.close();
  await server?.close();
});

const post = (path: string, body: unknown) =>
  server.request(path, {
    method: "POST",
    headers: { ...accessHeaders("client", keys), "content-type": "application/json" },
    body: JSON.stringify(body),
  });

async function json<T>(res: Response): Promise<T> {
  const text = await res.text();
  expect({ status: res.status, text }).toMatchObject({ status: 200 });
  return JSON.parse(text) as T;
}

/** Delivers the outbox and returns the one message the peer received for `to`. */
async function deliverTo(to: string): Promise<ParsedMail> {
  await server.deps.emailWorker.runOnce();
  const got = peer.to(to);
  expect(got).toHaveLength(1);
  expect(got[0]?.user).toBe("u");
  return (got[0] as Received).mail;
}

function expectHeaders(mail: ParsedMail, to: string, subject: string) {
  expect(mail.from?.text).toBe('"Acme" <noreply@acme.test>');
  expect(mail.from?.value).toEqual([{ name: "Acme", address: "noreply@acme.test" }]);
  expect(mail.to && !Array.isArray(mail.to) ? mail.to.value.map((a) => a.address) : []).toEqual([to]);
  expect(mail.subject).toBe(subject);
}

/** The link of the plain-text part, which the HTML part must carry too (attribute-escaped). */
function linkOf(mail: ParsedMail): URL {
  const link = firstLink(mail.text ?? null);
  expect(link).toBeDefined();
  expect(typeof mail.html).toBe("string");
  expect(mail.html as string).toContain((link as string).replace(/&/g, "&amp;"));
  return new URL(link as string);
}

async function outboxStatus(to: string) {
  const res = await server.request(`/api/v1/internal/emails?to=${encodeURIComponent(to)}`, {
    headers: accessHeaders("admin", keys),
  });
  return (await json<{ items: { status: string; attempts: number; sent_at_millis: number | null }[] }>(res))
    .items;
}

describe("delivery over SMTP", () => {
  it("delivers a password reset e-mail whose link resets the password", async () => {
    const email = "reset-reader@example.com";
    await json(await post("/api/v1/auth/password/sign-up", { email, password: PASSWORD }));
    const callback = `${DOMAIN}/handler/password-reset?x=1`;
    expect(
      await json(await post("/api/v1/auth/password/send-reset-code", { email, callback_url: callback })),
    ).toEqual({ success: "maybe, only if user with e-mail exists" });
    expect(peer.to(email)).toHaveLength(0);

    const mail = await deliverTo(email);
    expectHeaders(mail, email, `Reset your password at ${DISPLAY_NAME}`);
    const link = linkOf(mail);
    expect(`${link.origin}${link.pathname}`).toBe(`${DOMAIN}/handler/password-reset`);
    expect(link.searchParams.get("x")).toBe("1");
    const code = link.searchParams.get("code");
    expect(code).toMatch(CODE);
    expect(mail.text).toContain(code);
    expect(mail.html).toContain(code);

    // Follow the link: the page posts its code with the new password.
    expect(
      await json(await post("/api/v1/auth/password/reset", { code, password: "brand new secret" })),
    ).toEqual({
      success: true,
    });
    const signedIn = await json<{ user_id: string }>(
      await post("/api/v1/auth/password/sign-in", { email, password: "brand new secret" }),
    );
    expect(signedIn.user_id).toBeTruthy();

    const [row] = await outboxStatus(email);
    expect(row).toMatchObject({ status: "sent", attempts: 1, sent_at_millis: server.clock.now().getTime() });
  });

  it("delivers a magic_link e-mail whose OTP and link sign in", async () => {
    const email = "otp-reader@example.com";
    const callback = `${DOMAIN}/handler/magic-link-callback`;
    const { nonce } = await json<{ nonce: string }>(
      await post("/api/v1/auth/otp/send-sign-in-code", { email, callback_url: callback }),
    );
    const mail = await deliverTo(email);
    const otp = mail.subject?.match(/: Your code is ([0-9A-Z]{6})$/)?.[1];
    expect(otp).toBeDefined();
    expectHeaders(mail, email, `Sign in to ${DISPLAY_NAME}: Your code is ${otp}`);
    expect(mail.text).toContain(otp);
    expect(mail.html).toContain(otp);
    const link = linkOf(mail);
    expect(`${link.origin}${link.pathname}`).toBe(callback);
    expect(link.searchParams.get("code")).toBe((otp as string).toLowerCase() + nonce);

    const answer = await json<{ user_id: string; is_new_user: boolean }>(
      await post("/api/v1/auth/otp/sign-in", { code: (otp as string).toLowerCase() + nonce }),
    );
    expect(answer.is_new_user).toBe(true);
    const [row] = await outboxStatus(email);
    expect(row).toMatchObject({ status: "sent", attempts: 1 });

    // A second code, used through its link this time, signs the same user in.
    await json(await post("/api/v1/auth/otp/send-sign-in-code", { email, callback_url: callback }));
    await server.deps.emailWorker.runOnce();
    const second = peer.to(email)[1]?.mail as ParsedMail;
    expect(second).toBeDefined();
    const again = await json<{ user_id: string; is_new_user: boolean }>(
      await post("/api/v1/auth/otp/sign-in", { code: linkOf(second).searchParams.get("code") }),
    );
    expect(again).toMatchObject({ user_id: answer.user_id, is_new_user: false });
    expect((await outboxStatus(email)).map((item) => item.status)).toEqual(["sent", "sent"]);
  });
});
