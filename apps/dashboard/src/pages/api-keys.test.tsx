// @vitest-environment happy-dom
// The API keys screen against the real server: the form is validated, a new key set is revealed once (with copy
// buttons, and as a .env block copied at once), the list shows the last four characters of each key, and revoking
// asks first.
import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { dashboardLiveSuite, renderScreen } from "../testing.tsx";
import { ApiKeysPage } from "./api-keys.tsx";

const live = dashboardLiveSuite();

describe("the API keys screen", () => {
  it("creates keys, reveals them once, lists their last four and revokes them", async () => {
    const user = userEvent.setup();
    await renderScreen(live().app, <ApiKeysPage project={live().project} />);

    // Nothing chosen, no description: both are said, the checkboxes get the focus.
    await user.click(screen.getByRole("checkbox", { name: /Publishable client key/ }));
    await user.click(screen.getByRole("checkbox", { name: /Secret server key/ }));
    await user.click(screen.getByRole("button", { name: "Create keys" }));
    expect(await screen.findByText("Choose at least one key.")).toBeTruthy();
    expect(screen.getByText("Describe what the keys are for.")).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole("checkbox", { name: /Publishable client key/ }));

    await user.click(screen.getByRole("checkbox", { name: /Secret server key/ }));
    await user.click(screen.getByRole("checkbox", { name: /Super secret admin key/ }));
    await user.type(screen.getByLabelText("Description"), "CI server");
    await user.selectOptions(screen.getByLabelText("Expires after"), "Never");
    await user.click(screen.getByRole("button", { name: "Create keys" }));

    const reveal = await screen.findByRole("region", { name: "New keys: CI server" });
    expect(within(reveal).getByText("Copy these keys now. They will not be shown again.")).toBeTruthy();
    expect(within(reveal).getByText(live().project.id)).toBeTruthy();
    expect(within(reveal).queryByText(/^pck_/)).toBeNull();
    const secret = within(reveal).getByText(/^ssk_[0-9a-z]{45}$/).textContent as string;
    const admin = within(reveal).getByText(/^sak_[0-9a-z]{45}$/).textContent as string;
    await user.click(within(reveal).getByRole("button", { name: "Copy Secret server key" }));
    expect(await navigator.clipboard.readText()).toBe(secret);
    expect(within(reveal).getByText("Secret server key copied.")).toBeTruthy();

    const env = [
      `NEXT_PUBLIC_STACK_PROJECT_ID=${live().project.id}`,
      `STACK_SECRET_SERVER_KEY=${secret}`,
      `STACK_SUPER_SECRET_ADMIN_KEY=${admin}`,
      `NEXT_PUBLIC_STACK_API_URL=${window.location.origin}`,
    ].join("\n");
    expect(within(reveal).getByText("For your app's .env file").nextElementSibling?.textContent).toBe(env);
    await user.click(within(reveal).getByRole("button", { name: "Copy .env block" }));
    expect(await navigator.clipboard.readText()).toBe(env);
    expect(within(reveal).getByText(".env block copied.")).toBeTruthy();

    const row = (await screen.findByText("CI server", { selector: "td" })).closest("tr") as HTMLElement;
    expect(within(row).getByText(`…${secret.slice(-4)}`)).toBeTruthy();
    expect(within(row).getByText(`…${admin.slice(-4)}`)).toBeTruthy();
    expect(within(row).getByText("Never")).toBeTruthy();
    expect(within(row).getByText("Valid")).toBeTruthy();

    // Done: the full keys are gone for good and the form is back.
    await user.click(screen.getByRole("button", { name: "I have copied the keys" }));
    expect(screen.queryByText(secret)).toBeNull();
    expect(screen.getByRole("button", { name: "Create keys" })).toBeTruthy();

    await user.click(within(row).getByRole("button", { name: "Revoke CI server" }));
    expect(within(row).getByText("Revoke these keys for good?")).toBeTruthy();
    await user.click(within(row).getByRole("button", { name: "Cancel" }));
    expect(
      (await live().project.app.listInternalApiKeys()).find((s) => s.description === "CI server")?.isValid(),
    ).toBe(true);
    await user.click(within(row).getByRole("button", { name: "Revoke CI server" }));
    await user.click(within(row).getByRole("button", { name: "Revoke" }));
    await waitFor(() => expect(within(row).getByText("Revoked")).toBeTruthy());
    const revoked = (await live().project.app.listInternalApiKeys()).find(
      (s) => s.description === "CI server",
    );
    expect(revoked?.whyInvalid()).toBe("manually-revoked");
  });
});
