// @vitest-environment happy-dom
// The multi-factor section against a real server: setting up TOTP (QR code and key shown, a malformed or wrong code
// refused before anything is saved, the right code turning MFA on as the admin API sees it, and sign-in then asking
// for the second factor), and turning it off after confirming.
import { cleanup, screen, waitFor } from "@testing-library/react";
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

    const qr = mfa.getByRole("img", { name: "QR code for your authenticator app" });
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
