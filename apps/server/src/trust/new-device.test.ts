// The new-device notice over a real SMTP peer: a new device e-mails once, a known one never, an opted-out project
// never, and the sign-in that follows a sign-up is not new; an edited `new_device_notice` template is the one sent;
// plus the device and network keys it compares.

import { SUPPORTED_LOCALES } from "@gatehouse/contract/locales";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SmtpPeer, startSmtpPeer } from "../testing/smtp-peer.ts";
import {
  accessHeaders,
  createTestServer,
  type ProjectKeys,
  type TestServer,
} from "../testing/test-server.ts";
import { deviceOf, networkOf, newDeviceTemplate } from "./new-device.ts";

const PASSWORD = "correct horse battery";
const FIREFOX_LINUX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
const FIREFOX_LINUX_NEWER = "Mozilla/5.0 (X11; Linux x86_64; rv:130.0) Gecko/20100101 Firefox/130.0";
const SAFARI_MAC =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15";

let server: TestServer;
let peer: SmtpPeer;
let notifying: ProjectKeys;
let optedOut: ProjectKeys;

const smtp = (port: number) => ({
  type: "standard" as const,
  host: "127.0.0.1",
  port,
  username: "u",
  password: "p",
  sender_name: "Acme",
  sender_email: "noreply@acme.test",
});

beforeAll(async () => {
  server = await createTestServer();
  peer = await startSmtpPeer();
  notifying = (await server.createProject({ displayName: "Acme", config: { email_config: smtp(peer.port) } }))
    .keys;
  optedOut = (
    await server.createProject({
      displayName: "Quiet",
      config: { email_config: smtp(peer.port), new_device_notice_enabled: false },
    })
  ).keys;
});
afterAll(async () => {
  await server?.deps.emailWorker.stop();
  await peer?.close();
  await server?.close();
});

async function post(keys: ProjectKeys, path: string, body: unknown, ua: string, ip: string) {
  const res = await server.request(path, {
    method: "POST",
    headers: {
      ...accessHeaders("client", keys),
      "content-type": "application/json",
      "user-agent": ua,
      "x-forwarded-for": ip,
    },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

const signUp = (keys: ProjectKeys, email: string, ua: string, ip: string) =>
  post(keys, "/api/v1/auth/password/sign-up", { email, password: PASSWORD }, ua, ip);
const signIn = (keys: ProjectKeys, email: string, ua: string, ip: string) =>
  post(keys, "/api/v1/auth/password/sign-in", { email, password: PASSWORD }, ua, ip);

/** Delivers the outbox and returns the subjects of the notices `to` received. */
async function notices(to: string): Promise<string[]> {
  await server.deps.emailWorker.runOnce();
  return peer.to(to).map((r) => r.mail.subject ?? "");
}

describe("new-device notice", () => {
  it("e-mails once for a new device, with time, browser, OS and IP, and not again for the same device", async () => {
    const email = "traveller@example.com";
    await signUp(notifying, email, FIREFOX_LINUX, "203.0.113.7");
    await signIn(notifying, email, FIREFOX_LINUX, "203.0.113.7");
    // The first sign-in after the sign-up is from the sign-up's device: nothing to tell.
    expect(await notices(email)).toEqual([]);

    await signIn(notifying, email, SAFARI_MAC, "198.51.100.20");
    expect(await notices(email)).toEqual(["New sign-in to Acme"]);
    const mail = peer.to(email)[0]?.mail;
    expect(mail?.text).toContain("Safari");
    expect(mail?.text).toContain("macOS");
    expect(mail?.text).toContain("198.51.100.20");
    expect(mail?.text).toMatch(/Time: \w{3}, \d{2} \w{3} \d{4}/);

    // The same device again, a browser update, and another address in the same /24: all known.
    await signIn(notifying, email, SAFARI_MAC, "198.51.100.20");
    await signIn(notifying, email, SAFARI_MAC, "198.51.100.99");
    await signIn(notifying, email, FIREFOX_LINUX_NEWER, "203.0.113.8");
    expect(await notices(email)).toHaveLength(1);
  });

  it("sends nothing when the project turned the notice off", async () => {
    const email = "quiet@example.com";
    await signUp(optedOut, email, FIREFOX_LINUX, "203.0.113.7");
    await signIn(optedOut, email, SAFARI_MAC, "198.51.100.20");
    expect(await notices(email)).toEqual([]);
  });

  it("sends the project's edited template, with the variables the templates API lists for it", async () => {
    const admin = { ...accessHeaders("admin", notifying), "content-type": "application/json" };
    const listed = await server.request("/api/v1/email-templates/new_device_notice", { headers: admin });
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { is_default: boolean }).is_default).toBe(true);
    const edit = (body: unknown) =>
      server.request("/api/v1/email-templates/new_device_notice", {
        method: "PATCH",
        headers: admin,
        body: JSON.stringify(body),
      });
    // A variable the type does not have is refused on save.
    expect((await edit({ subject: "{{ magicLink }}" })).status).toBe(400);
    expect(
      (
        await edit({
          subject: "{{ projectDisplayName }}: was it you?",
          content: "<p>{{ userDisplayName }}, {{ browser }} on {{ os }} from {{ ip }} at {{ time }}.</p>",
        })
      ).status,
    ).toBe(200);
    const email = "edited@example.com";
    await signUp(notifying, email, FIREFOX_LINUX, "203.0.113.7");
    await signIn(notifying, email, SAFARI_MAC, "198.51.100.20");
    expect(await notices(email)).toEqual(["Acme: was it you?"]);
    expect(peer.to(email)[0]?.mail.text).toMatch(/Safari on macOS from 198\.51\.100\.20 at \w{3}, /);
    const reset = await server.request("/api/v1/email-templates/new_device_notice", {
      method: "DELETE",
      headers: admin,
    });
    expect(reset.status).toBe(200);
  });

  it("shows the setting on in the admin view by default", async () => {
    const res = await server.request("/api/v1/projects/current", {
      headers: accessHeaders("admin", notifying),
    });
    const body = (await res.json()) as { config: { new_device_notice_enabled: boolean } };
    expect(body.config.new_device_notice_enabled).toBe(true);
  });
});

describe("device keys", () => {
  it("takes the IPv4 /24 and the IPv6 /64 as the network", () => {
    expect(networkOf("198.51.100.20")).toBe("198.51.100.0/24");
    expect(networkOf("::ffff:198.51.100.20")).toBe("198.51.100.0/24");
    expect(networkOf("2001:db8:0:12:1::5")).toBe("2001:db8:0:12::/64");
    expect(networkOf("2001:0db8::1")).toBe("2001:db8:0:0::/64");
    expect(networkOf("2001:db8:0:12:abcd:1:2:3")).toBe("2001:db8:0:12::/64");
    expect(networkOf("unknown")).toBe("unknown");
    expect(networkOf(null)).toBe("unknown");
  });

  it("keeps browser and OS families without versions", () => {
    expect(deviceOf(FIREFOX_LINUX)).toEqual(deviceOf(FIREFOX_LINUX_NEWER));
    expect(deviceOf(SAFARI_MAC)).toEqual({ browser: "Safari", os: "macOS" });
    expect(deviceOf(null)).toEqual({ browser: "Unknown browser", os: "Unknown OS" });
  });
});

describe("notice texts", () => {
  it("has every locale, each with all four facts, in its language and direction", () => {
    for (const locale of SUPPORTED_LOCALES) {
      const template = newDeviceTemplate(locale);
      expect(template.subject).toContain("{{ projectDisplayName }}");
      for (const name of ["time", "browser", "os", "ip"]) expect(template.content).toContain(`{{ ${name} }}`);
      expect(template.content).toContain(`lang="${locale}"`);
    }
    expect(newDeviceTemplate("de-AT").subject).toBe("Neue Anmeldung bei {{ projectDisplayName }}");
    expect(newDeviceTemplate("ar").content).toContain('dir="rtl"');
    expect(newDeviceTemplate(null).subject).toBe("New sign-in to {{ projectDisplayName }}");
  });
});
