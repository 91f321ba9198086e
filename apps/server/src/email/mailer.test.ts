// SMTP settings from a URL and from a project's email_config.
import { describe, expect, it } from "vitest";
import { parseSmtpUrl, smtpFromEmailConfig } from "./mailer.ts";

describe("parseSmtpUrl", () => {
  it("reads user, password, host, port and sender", () => {
    expect(
      parseSmtpUrl("smtp://us%40er:p%3Ass@mail.test:2525?from=Acme%20App%20<no+reply@acme.test>"),
    ).toEqual({
      host: "mail.test",
      port: 2525,
      username: "us@er",
      password: "p:ss",
      senderName: "Acme App",
      senderEmail: "no+reply@acme.test",
    });
  });

  it("defaults the port by scheme and accepts a bare or quoted sender", () => {
    expect(parseSmtpUrl("smtp://mail.test?from=a@b.test")).toMatchObject({
      port: 587,
      senderName: "",
      senderEmail: "a@b.test",
      username: undefined,
    });
    expect(parseSmtpUrl('smtps://mail.test?from="Acme" <a@b.test>')).toMatchObject({
      port: 465,
      senderName: "Acme",
      senderEmail: "a@b.test",
    });
    expect(parseSmtpUrl("smtp://me%40b.test:pw@[::1]:25")).toMatchObject({
      host: "::1",
      senderEmail: "me@b.test",
    });
  });

  it("rejects what it cannot send with", () => {
    expect(() => parseSmtpUrl("http://mail.test?from=a@b.test")).toThrow(/smtp:\/\//);
    expect(() => parseSmtpUrl("smtps://mail.test:587?from=a@b.test")).toThrow(/465/);
    expect(() => parseSmtpUrl("smtp://mail.test")).toThrow(/from/);
    expect(() => parseSmtpUrl("smtp://mail.test?from=not-an-address")).toThrow(/from/);
    expect(() => parseSmtpUrl("smtp://mail.test?from=a@b.test&tls=no")).toThrow(/unknown parameter/);
    expect(() => parseSmtpUrl("not a url")).toThrow(/valid URL/);
  });
});

describe("smtpFromEmailConfig", () => {
  it("maps a standard config and leaves shared to the default", () => {
    expect(smtpFromEmailConfig({ type: "shared" })).toBeUndefined();
    expect(
      smtpFromEmailConfig({
        type: "standard",
        host: "h",
        port: 465,
        username: "u",
        password: "p",
        sender_name: "N",
        sender_email: "n@x.test",
      }),
    ).toEqual({
      host: "h",
      port: 465,
      username: "u",
      password: "p",
      senderName: "N",
      senderEmail: "n@x.test",
    });
  });
});
