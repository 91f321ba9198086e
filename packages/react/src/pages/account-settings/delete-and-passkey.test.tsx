// @vitest-environment happy-dom
// The account deletion and passkey sections against a real server: each shown only where the project allows it;
// deletion armed by typing DELETE, then the user is gone and the browser goes home (not to sign-in); a passkey
// the browser refuses to create shows its error in place; one registered, then turned off after confirming.

import { createSoftAuthenticator } from "@gatehouse/server/testing/soft-authenticator";
import { cleanup, screen, waitFor } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createLive, type LiveSetup } from "../../test-support/live.ts";
import { renderSettings, section, serverUser, signUp } from "./test-helpers.tsx";

let live: LiveSetup;
beforeAll(async () => {
  live = await createLive({ client_user_deletion_enabled: true, passkey_enabled: true });
});
afterAll(() => live.close());
afterEach(cleanup);

describe("delete account", () => {
  it("deletes the account once DELETE is typed, then goes home", async () => {
    await signUp(live);
    const { id } = await live.app.getUser({ or: "throw" });
    await renderSettings(live);
    const danger = await section("Delete account");
    const button = danger.getByRole("button", { name: "Delete my account" });
    await userEvent.type(danger.getByLabelText("Type DELETE to confirm"), "delete");
    await userEvent.click(button);
    expect(danger.getByRole("alert").textContent).toBe("Type DELETE to confirm.");
    expect(document.activeElement).toBe(danger.getByLabelText("Type DELETE to confirm"));
    expect((await serverUser(live)).id).toBe(id);

    live.navigations.length = 0;
    await userEvent.clear(danger.getByLabelText("Type DELETE to confirm"));
    await userEvent.type(danger.getByLabelText("Type DELETE to confirm"), "DELETE");
    await userEvent.click(button);
    expect(await screen.findByText("Your account was deleted.")).toBeTruthy();
    await waitFor(() => expect(live.navigations).toEqual(["/"]));
    await expect(live.admin("GET", `/users/${id}`)).rejects.toThrow(/404/);
    expect(await live.app.getUser()).toBeNull();
  });

  it("is absent where the project does not let clients delete themselves", async () => {
    const closed = await createLive({ client_user_deletion_enabled: false });
    try {
      await signUp(closed);
      await renderSettings(closed);
      await section("Profile");
      expect(screen.queryByRole("region", { name: "Delete account" })).toBeNull();
      expect(screen.queryByRole("region", { name: "Passkey" })).toBeNull();
    } finally {
      await closed.close();
    }
  });
});

describe("passkey", () => {
  it("shows the browser's refusal in place", async () => {
    await signUp(live);
    const refuse = () => Promise.reject(new DOMException("The user cancelled.", "NotAllowedError"));
    Object.defineProperty(navigator, "credentials", {
      value: { create: refuse, get: refuse },
      configurable: true,
    });
    try {
      await renderSettings(live);
      const passkey = await section("Passkey");
      expect(passkey.getByText("You have no passkey.")).toBeTruthy();
      await userEvent.click(passkey.getByRole("button", { name: "Register a passkey" }));
      expect((await passkey.findByRole("alert")).textContent).toBe(
        "The passkey could not be registered. Please try again.",
      );
    } finally {
      Reflect.deleteProperty(navigator, "credentials");
    }
  });

  it("registers a passkey, then turns passkey sign-in off after confirming", async () => {
    await signUp(live);
    // The browser's WebAuthn, answered by a software authenticator (the server verifies a real attestation).
    const authenticator = createSoftAuthenticator();
    const bytes = (b64url: string) => Uint8Array.from(Buffer.from(b64url, "base64url")).buffer;
    const create = async ({ publicKey }: { publicKey: PublicKeyCredentialCreationOptions }) => {
      const json = authenticator.register({
        challenge: Buffer.from(publicKey.challenge as ArrayBuffer).toString("base64url"),
        origin: window.location.origin,
        userHandle: Buffer.from(publicKey.user.id as ArrayBuffer).toString("base64url"),
      });
      return {
        id: json.id,
        rawId: bytes(json.rawId),
        type: json.type,
        response: {
          clientDataJSON: bytes(json.response.clientDataJSON),
          attestationObject: bytes(json.response.attestationObject),
          getTransports: () => json.response.transports,
        },
        getClientExtensionResults: () => ({}),
        authenticatorAttachment: "platform",
      };
    };
    Object.defineProperty(navigator, "credentials", { value: { create, get: create }, configurable: true });
    try {
      await renderSettings(live);
      const passkey = await section("Passkey");
      await userEvent.click(passkey.getByRole("button", { name: "Register a passkey" }));
      expect(await passkey.findByText("You can sign in with a passkey.")).toBeTruthy();
      expect((await serverUser(live)).passkey_auth_enabled).toBe(true);
    } finally {
      Reflect.deleteProperty(navigator, "credentials");
    }
    const passkey = await section("Passkey");
    await userEvent.click(passkey.getByRole("button", { name: "Turn off passkey sign-in" }));
    expect(passkey.getByText("Stop signing in with your passkey?")).toBeTruthy();
    await userEvent.click(passkey.getByRole("button", { name: "Turn off passkey sign-in" }));
    expect(await passkey.findByText("You have no passkey.")).toBeTruthy();
    expect((await serverUser(live)).passkey_auth_enabled).toBe(false);
  });
});
