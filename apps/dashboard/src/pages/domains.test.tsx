// @vitest-environment happy-dom
// The domains screen against the real server: trusted domains added, changed and removed, and production mode
// refused with the spec's words while localhost is allowed, then turned on once the problems are fixed.
import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { dashboardLiveSuite, renderScreen } from "../testing.tsx";
import { DomainsPage } from "./domains.tsx";
import type { SettingsConfig } from "./settings/project-settings.ts";

const live = dashboardLiveSuite();

const stored = async () => {
  const project = await live().project.app.getProject();
  const production = (project as { isProductionMode?: unknown }).isProductionMode;
  return { config: project.config as unknown as SettingsConfig, production };
};
const LOCALHOST = "Localhost is not allowed in production mode, turn off Allow localhost in project settings";

async function addDomain(domain: string, handlerPath?: string) {
  const user = userEvent.setup();
  const form = screen.getByRole("form", { name: "Add a domain" });
  await user.type(within(form).getByLabelText("Domain"), domain);
  if (handlerPath !== undefined) {
    await user.clear(within(form).getByLabelText("Handler path"));
    await user.type(within(form).getByLabelText("Handler path"), handlerPath);
  }
  await user.click(within(form).getByRole("button", { name: "Add domain" }));
}

describe("the domains screen", () => {
  it("adds, changes and removes trusted domains", async () => {
    await renderScreen(live().app, <DomainsPage project={live().project} />);
    expect(screen.getByText(/No trusted domains yet/)).toBeTruthy();
    const form = screen.getByRole("form", { name: "Add a domain" });
    await addDomain("shop.example.com");
    expect(
      within(form).getByText("Start with https:// (or http://), like https://example.com."),
    ).toBeTruthy();
    expect(document.activeElement).toBe(within(form).getByLabelText("Domain"));
    const user = userEvent.setup();
    await user.clear(within(form).getByLabelText("Domain"));
    await addDomain("https://shop.example.com/login");
    expect(within(form).getByText(/without a path/)).toBeTruthy();
    await user.clear(within(form).getByLabelText("Domain"));

    await addDomain("https://shop.example.com");
    expect(await screen.findByText("https://shop.example.com added.")).toBeTruthy();
    await addDomain("http://localhost:3000", "/auth");
    expect(await screen.findByText("http://localhost:3000 added.")).toBeTruthy();
    expect((await stored()).config.domains).toEqual([
      { domain: "https://shop.example.com", handlerPath: "/handler" },
      { domain: "http://localhost:3000", handlerPath: "/auth" },
    ]);

    await user.click(screen.getByRole("button", { name: "Edit https://shop.example.com" }));
    const edit = screen.getByRole("form", { name: "Edit https://shop.example.com" });
    await user.clear(within(edit).getByLabelText("Handler path"));
    await user.type(within(edit).getByLabelText("Handler path"), "/account/handler");
    await user.click(within(edit).getByRole("button", { name: "Save domain" }));
    expect(await screen.findByText("https://shop.example.com saved.")).toBeTruthy();
    const table = screen.getByRole("table", { name: "Trusted domains" });
    expect(within(table).getByText("/account/handler")).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "Remove https://shop.example.com" }));
    await user.click(screen.getByRole("button", { name: "Yes, remove" }));
    await waitFor(() => expect(within(table).queryByText("https://shop.example.com")).toBeNull());
    expect((await stored()).config.domains).toEqual([
      { domain: "http://localhost:3000", handlerPath: "/auth" },
    ]);
  });

  it("refuses production mode while localhost is allowed, in the spec's words, and allows it once fixed", async () => {
    await renderScreen(live().app, <DomainsPage project={live().project} />);
    const user = userEvent.setup();
    const production = screen.getByRole("switch", { name: /Production mode/ }) as HTMLInputElement;
    await user.click(production);
    expect(
      await screen.findByText("Production mode cannot be turned on until these problems are fixed."),
    ).toBeTruthy();
    const problems = screen.getByRole("list", { name: "These problems block production mode:" });
    expect(
      within(problems)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual([
      LOCALHOST,
      "Localhost domains are not allowed to be trusted in production mode: http://localhost:3000",
      "Trusted domains should be HTTPS: http://localhost:3000",
    ]);
    expect(production.checked).toBe(false);
    expect((await stored()).production).toBe(false);

    // Fix both: allow localhost off, the localhost domain replaced by an https one.
    await user.click(screen.getByRole("switch", { name: /Allow localhost/ }));
    expect(await screen.findByText("Localhost is no longer allowed.")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Remove http://localhost:3000" }));
    await user.click(screen.getByRole("button", { name: "Yes, remove" }));
    await addDomain("https://app.example.com");
    expect(await screen.findByText("Nothing blocks production mode.")).toBeTruthy();

    await user.click(production);
    expect(await screen.findByText("Production mode is on.")).toBeTruthy();
    expect(production.checked).toBe(true);
    expect((await stored()).production).toBe(true);

    // The server refuses what production mode forbids, and its sentence is shown in place.
    await user.click(screen.getByRole("switch", { name: /Allow localhost/ }));
    expect((await screen.findByRole("alert")).textContent).toBe(LOCALHOST);
    expect((await stored()).config.allowLocalhost).toBe(false);
  });
});
