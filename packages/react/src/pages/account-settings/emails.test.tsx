// @vitest-environment happy-dom
// The e-mails section against a real server: the sign-up address with its badges, adding one (and the in-place
// refusals), sending a verification e-mail that arrives, making it primary and used for sign-in, removing one.
import { cleanup, screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createLive, type LiveSetup } from "../../test-support/live.ts";
import { renderSettings, section, signUp } from "./test-helpers.tsx";

let live: LiveSetup;
beforeAll(async () => {
  live = await createLive();
});
afterAll(() => live.close());
afterEach(cleanup);

/** The list item of an address, for queries within it. */
async function item(address: string) {
  const text = await screen.findByText(address);
  return within(text.closest("li") as HTMLElement);
}

const channels = async () =>
  (await (await live.app.getUser({ or: "throw" })).listContactChannels()).map((c) => ({
    value: c.value,
    isPrimary: c.isPrimary,
    usedForAuth: c.usedForAuth,
  }));

describe("e-mails", () => {
  it("lists the sign-up address with its badges", async () => {
    const email = await signUp(live);
    await renderSettings(live);
    await section("E-mails");
    const own = await item(email);
    expect(own.getByText("Primary")).toBeTruthy();
    expect(own.getByText("Not verified")).toBeTruthy();
    expect(own.getByText("Used for sign-in")).toBeTruthy();
    expect(own.queryByRole("button", { name: "Make primary" })).toBeNull();
  });

  it("adds an address, shows it, and refuses an invalid or repeated one in place", async () => {
    const email = await signUp(live);
    await renderSettings(live);
    const emails = await section("E-mails");
    const field = emails.getByLabelText("Add an e-mail address");
    const add = emails.getByRole("button", { name: "Add e-mail" });

    await userEvent.click(add);
    expect(emails.getByRole("alert").textContent).toBe("This field is required.");
    expect(document.activeElement).toBe(field);
    await userEvent.type(field, "not-an-address");
    await userEvent.click(add);
    expect(emails.getByRole("alert").textContent).toBe("Enter a valid e-mail address.");
    await userEvent.clear(field);
    await userEvent.type(field, email.toUpperCase());
    await userEvent.click(add);
    expect(emails.getByRole("alert").textContent).toBe("You have already added this e-mail address.");

    const second = `second-${email}`;
    await userEvent.clear(field);
    await userEvent.type(field, second);
    await userEvent.click(add);
    const added = await item(second);
    expect(added.getByText("Not verified")).toBeTruthy();
    expect(added.queryByText("Used for sign-in")).toBeNull();
    expect(field).toHaveProperty("value", "");
    expect(await channels()).toContainEqual({ value: second, isPrimary: false, usedForAuth: false });
  });

  it("shows the server's refusal in place: an address another account signs in with", async () => {
    const other = await signUp(live);
    await signUp(live);
    await renderSettings(live);
    const emails = await section("E-mails");
    await userEvent.type(emails.getByLabelText("Add an e-mail address"), other);
    await userEvent.click(emails.getByRole("button", { name: "Add e-mail" }));
    const taken = await item(other);
    await userEvent.click(taken.getByRole("button", { name: "Use for sign-in" }));
    expect((await taken.findByRole("alert")).textContent).toBe(
      "Another account already signs in with this e-mail address.",
    );
  });

  it("sends a verification e-mail, makes an address primary, and removes one after confirming", async () => {
    const email = await signUp(live);
    await renderSettings(live);
    const emails = await section("E-mails");
    const second = `second-${email}`;
    await userEvent.type(emails.getByLabelText("Add an e-mail address"), second);
    await userEvent.click(emails.getByRole("button", { name: "Add e-mail" }));
    const added = await item(second);

    await userEvent.click(added.getByRole("button", { name: "Send verification e-mail" }));
    expect(await added.findByText(/^Verification e-mail sent/)).toBeTruthy();
    expect((await live.lastEmail(second)).text).toMatch(/code=/);

    await userEvent.click(added.getByRole("button", { name: "Make primary" }));
    await waitFor(() => expect(added.getByText("Primary")).toBeTruthy());
    expect((await item(email)).queryByText("Primary")).toBeNull();
    await userEvent.click(added.getByRole("button", { name: "Use for sign-in" }));
    await waitFor(() => expect(added.getByText("Used for sign-in")).toBeTruthy());

    const own = await item(email);
    await userEvent.click(own.getByRole("button", { name: "Remove" }));
    expect(own.getByText(`Remove ${email}?`)).toBeTruthy();
    await userEvent.click(own.getByRole("button", { name: "Cancel" }));
    expect(own.queryByText(`Remove ${email}?`)).toBeNull();
    await userEvent.click(own.getByRole("button", { name: "Remove" }));
    await userEvent.keyboard("{Escape}");
    expect(own.queryByText(`Remove ${email}?`)).toBeNull();
    expect(document.activeElement).toBe(own.getByRole("button", { name: "Remove" }));
    await userEvent.click(own.getByRole("button", { name: "Remove" }));
    await userEvent.click(own.getByRole("button", { name: "Remove" }));
    await waitFor(() => expect(screen.queryByText(email)).toBeNull());
    expect(await channels()).toEqual([{ value: second, isPrimary: true, usedForAuth: true }]);
  });
});
