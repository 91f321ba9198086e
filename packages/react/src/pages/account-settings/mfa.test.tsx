// @vitest-environment happy-dom
// The multi-factor section against a real server: setting up TOTP (QR code and key shown, a malformed or wrong code
// refused before anything is saved, the right code turning MFA on as the admin API sees it, and sign-in then asking
// for the second factor), and turning it off after confirming; the recovery codes shown once after turning it on
// (copy, download), and new ones that replace them (an old code no longer signs in, a new one does).
import { StatusError } from "@gatehouse/sdk";
import { cleanup, screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createLive, type LiveSetup } from "../../test-support/live.ts";
import { PASSWORD, renderSettings, section, serverUser, signUp } from "./test-helpers.tsx";
import { base32Decode, totpAt } from "./totp.ts";

let live: LiveSetup;
beforeAll(async () => {
  live = await createLive();
});
afterAll(() => live.close());
afterEach(cleanup);

describe("multi-factor", () => {
  it("refuses a wrong code, turns MFA on with the right one, and off after confirming", async () => {
    const email = await signUp(live);
    await renderSettings(live);
    const mfa = await section("Two-factor authentication");
    expect(mfa.getByText(/^Off:/)).toBeTruthy();
    await userEvent.click(mfa.getByRole("button", { name: "Set up an authenticator app" }));

    const qr = await mfa.findByRole("img", { name: "QR code for your authenticator app" });
    expect(qr.getAttribute("src")).toMatch(/^data:image\/svg\+xml/);
    const keyText = mfa.getByText("Or enter this key in the app:").nextElementSibling?.textContent ?? "";
    const secret = base32Decode(keyText);
    expect(secret?.length).toBe(20);

    const field = mfa.getByLabelText("6-digit code from the app");
    const confirm = mfa.getByRole("button", { name: "Turn on" });
    await userEvent.type(field, "12ab");
    await userEvent.click(confirm);
    expect(mfa.getByRole("alert").textContent).toBe("Enter the 6-digit code from your authenticator app.");

    // A code of another step than now (±1 is allowed) is wrong.
    await userEvent.clear(field);
    await userEvent.type(field, await totpAt(secret as Uint8Array, Date.now() - 5 * 60_000));
    await userEvent.click(confirm);
    expect((await mfa.findByRole("alert")).textContent).toMatch(/^This code is not right/);
    expect(document.activeElement).toBe(field);
    expect((await serverUser(live)).requires_totp_mfa).toBe(false);

    await userEvent.clear(field);
    await userEvent.type(field, await totpAt(secret as Uint8Array, Date.now()));
    await userEvent.click(confirm);
    expect(await mfa.findByText("Two-factor authentication is on.")).toBeTruthy();
    expect(mfa.getByText(/^On:/)).toBeTruthy();
    expect((await serverUser(live)).requires_totp_mfa).toBe(true);
    const signIn = await live.newApp().signInWithCredential({ email, password: PASSWORD, noRedirect: true });
    expect(signIn.status === "error" && signIn.error.errorCode).toBe("MULTI_FACTOR_AUTHENTICATION_REQUIRED");

    await userEvent.click(mfa.getByRole("button", { name: "Turn off two-factor authentication" }));
    expect(mfa.getByText("Stop asking for a code when you sign in?")).toBeTruthy();
    await userEvent.click(mfa.getByRole("button", { name: "Turn off two-factor authentication" }));
    await waitFor(() => expect(mfa.getByText(/^Off:/)).toBeTruthy());
    expect((await serverUser(live)).requires_totp_mfa).toBe(false);
    expect(mfa.queryByRole("list", { name: "Recovery codes" })).toBeNull();
    expect(mfa.queryByRole("button", { name: "Generate new recovery codes" })).toBeNull();
  });

  it("shows recovery codes once after turning on, and new ones replace them", async () => {
    const email = await signUp(live);
    await renderSettings(live);
    const mfa = await section("Two-factor authentication");
    expect(mfa.queryByRole("button", { name: "Generate new recovery codes" })).toBeNull();
    await userEvent.click(mfa.getByRole("button", { name: "Set up an authenticator app" }));
    const keyText = mfa.getByText("Or enter this key in the app:").nextElementSibling?.textContent ?? "";
    await userEvent.type(
      mfa.getByLabelText("6-digit code from the app"),
      await totpAt(base32Decode(keyText) as Uint8Array, Date.now()),
    );
    await userEvent.click(mfa.getByRole("button", { name: "Turn on" }));

    const first = readCodes(await mfa.findByRole("list", { name: "Recovery codes" }));
    expect(first).toHaveLength(10);
    expect(new Set(first).size).toBe(10);
    expect(mfa.getByText(/they will not be shown again/)).toBeTruthy();
    // The download link gets its blob URL in an effect after the codes show: wait for it.
    const download = await mfa.findByRole("link", { name: "Download" });
    expect(download.getAttribute("href")).toMatch(/^blob:/);
    expect(download.getAttribute("download")).toBe("recovery-codes.txt");
    await userEvent.click(mfa.getByRole("button", { name: "Copy" }));
    expect(await mfa.findByText("Copied.")).toBeTruthy();
    expect(await navigator.clipboard.readText()).toBe(`${first.join("\n")}\n`);
    await userEvent.click(mfa.getByRole("button", { name: "I have saved them" }));
    expect(mfa.queryByRole("list", { name: "Recovery codes" })).toBeNull();

    const generate = mfa.getByRole("button", { name: "Generate new recovery codes" });
    await userEvent.click(generate);
    expect(mfa.getByText("Your current recovery codes will stop working. Generate new ones?")).toBeTruthy();
    await userEvent.click(mfa.getByRole("button", { name: "Generate new recovery codes" }));
    const second = readCodes(await mfa.findByRole("list", { name: "Recovery codes" }));
    expect(second).toHaveLength(10);
    expect(second.filter((code) => first.includes(code))).toEqual([]);

    // An old code no longer completes a sign-in; a new one does.
    const app = live.newApp();
    const signIn = await app.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
    const attemptCode = signIn.status === "error" ? String(signIn.error.details?.attempt_code) : "";
    const old = await app
      .signInWithRecoveryCode(first[0] as string, attemptCode, { noRedirect: true })
      .catch((e) => e);
    expect(old).toBeInstanceOf(StatusError);
    expect((old as StatusError).body).toMatch(/Invalid recovery code/);
    expect(await app.getUser()).toBeNull();
    const fresh = await app.signInWithRecoveryCode(second[0] as string, attemptCode, { noRedirect: true });
    expect(fresh.status).toBe("ok");
    expect((await app.getUser())?.primaryEmail).toBe(email);
  });

  it("cancelling the setup saves nothing", async () => {
    await signUp(live);
    await renderSettings(live);
    const mfa = await section("Two-factor authentication");
    await userEvent.click(mfa.getByRole("button", { name: "Set up an authenticator app" }));
    await userEvent.click(mfa.getByRole("button", { name: "Cancel" }));
    expect(mfa.queryByRole("img")).toBeNull();
    expect(screen.getByRole("button", { name: "Set up an authenticator app" })).toBeTruthy();
    expect((await serverUser(live)).requires_totp_mfa).toBe(false);
  });
});

function readCodes(list: HTMLElement): string[] {
  return within(list)
    .getAllByRole("listitem")
    .map((item) => item.textContent ?? "");
}
