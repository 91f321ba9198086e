// @vitest-environment happy-dom
// The profile section against a real server: the display name saved and seen after a fresh read, and the avatar
// uploaded (as a data URL, happy-dom having no canvas), refused when too large or not an image, and removed; and
// the page's redirect of a signed-out visitor to sign-in.
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createLive, type LiveSetup } from "../../test-support/live.ts";
import { renderWithApp, visit } from "../../test-support/render.tsx";
import { AccountSettings } from "./index.tsx";
import { renderSettings, section, serverUser, signUp } from "./test-helpers.tsx";

// The smallest PNG (1×1, transparent).
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="),
  (c) => c.charCodeAt(0),
);

let live: LiveSetup;
beforeAll(async () => {
  live = await createLive();
});
afterAll(() => live.close());
afterEach(cleanup);

describe("profile", () => {
  it("saves the display name, which a fresh read of the user shows", async () => {
    await signUp(live);
    await renderSettings(live);
    const profile = await section("Profile");
    const field = profile.getByLabelText("Display name");
    expect(field).toHaveProperty("value", "");
    await userEvent.type(field, "Ada Lovelace");
    await userEvent.click(profile.getByRole("button", { name: "Save" }));
    expect(await profile.findByText("Saved.")).toBeTruthy();
    expect((await serverUser(live)).display_name).toBe("Ada Lovelace");

    cleanup();
    await renderSettings(live);
    expect((await section("Profile")).getByLabelText("Display name")).toHaveProperty("value", "Ada Lovelace");
  });

  it("shows the save in progress, and a second click meanwhile does nothing", async () => {
    await signUp(live);
    await renderSettings(live);
    const profile = await section("Profile");
    await userEvent.type(profile.getByLabelText("Display name"), "Grace");
    const save = profile.getByRole("button", { name: "Save" });
    fireEvent.click(save);
    expect(save.getAttribute("aria-busy")).toBe("true");
    fireEvent.click(save);
    expect(await profile.findByText("Saved.")).toBeTruthy();
    expect(save.getAttribute("aria-busy")).toBeNull();
    expect((await serverUser(live)).display_name).toBe("Grace");
  });

  it("refuses a name over 256 characters in place, with focus on the field", async () => {
    await signUp(live);
    await renderSettings(live);
    const profile = await section("Profile");
    const field = profile.getByLabelText("Display name");
    await userEvent.click(field);
    await userEvent.paste("x".repeat(257));
    await userEvent.click(profile.getByRole("button", { name: "Save" }));
    expect(profile.getByRole("alert").textContent).toBe("Names can have at most 256 characters.");
    expect(document.activeElement).toBe(field);
    expect((await serverUser(live)).display_name).toBeNull();
  });

  it("uploads an avatar as a data URL and removes it after confirming", async () => {
    await signUp(live);
    await renderSettings(live);
    const profile = await section("Profile");
    await userEvent.upload(
      profile.getByLabelText("Profile picture"),
      new File([PNG], "me.png", { type: "image/png" }),
    );
    // Nothing is stored until the person saves the previewed picture.
    await userEvent.click(await profile.findByRole("button", { name: "Save picture" }));
    await waitFor(async () =>
      expect((await serverUser(live)).profile_image_url).toMatch(/^data:image\/png;base64,iVBOR/),
    );
    await userEvent.click(await profile.findByRole("button", { name: "Remove picture" }));
    expect(profile.getByText("Remove your profile picture?")).toBeTruthy();
    await userEvent.click(profile.getByRole("button", { name: "Remove picture" }));
    await waitFor(() => expect(profile.queryByRole("button", { name: "Remove picture" })).toBeNull());
    expect((await serverUser(live)).profile_image_url).toBeNull();
  });

  it("refuses an image too large to store, and a file that is not an image", async () => {
    await signUp(live);
    await renderSettings(live);
    const profile = await section("Profile");
    const input = profile.getByLabelText("Profile picture");
    await userEvent.upload(input, new File([new Uint8Array(600 * 1024)], "big.png", { type: "image/png" }));
    expect((await profile.findByRole("alert")).textContent).toMatch(/^Image too large/);
    await userEvent.upload(input, new File(["hello"], "notes.txt", { type: "text/plain" }), {
      applyAccept: false,
    });
    expect((await profile.findByText("Choose a PNG, JPEG, GIF or WebP image.")).getAttribute("role")).toBe(
      "alert",
    );
    expect((await serverUser(live)).profile_image_url).toBeNull();
  });
});

describe("the page", () => {
  it("sends a signed-out visitor to sign-in, coming back here afterwards", async () => {
    await signUp(live);
    await live.app.signOut();
    live.navigations.length = 0;
    visit("/handler/account-settings");
    await renderWithApp(live.app, <AccountSettings />);
    await waitFor(() =>
      expect(live.navigations).toEqual([
        "/handler/sign-in?after_auth_return_to=%2Fhandler%2Faccount-settings",
      ]),
    );
    expect(screen.queryByRole("heading", { name: "Account settings" })).toBeNull();
  });
});
