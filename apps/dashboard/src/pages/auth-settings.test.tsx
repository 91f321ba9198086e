// @vitest-environment happy-dom
// The authentication screen against the real server: a switch saved and seen by the project's client view, and
// OAuth providers added (a standard one needs its client id and secret, and shows the callback URL to register at the
// provider, with a Copy button), disabled, changed and removed.
import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { dashboardLiveSuite, renderScreen } from "../testing.tsx";
import { AuthSettingsPage } from "./auth-settings.tsx";
import type { SettingsConfig } from "./settings/project-settings.ts";

const live = dashboardLiveSuite();

/** The project as its sign-in pages see it. */
async function clientView() {
  const response = await live().server.request("/api/v1/projects/current", {
    headers: { "x-stack-project-id": live().project.id, "x-stack-access-type": "client" },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { config: Record<string, unknown> };
}

const providers = async () =>
  ((await live().project.app.getProject()).config as unknown as SettingsConfig).oauthProviders;

describe("the authentication screen", () => {
  it("saves the magic-link switch, which the project's client view then shows", async () => {
    expect((await clientView()).config.magic_link_enabled).toBe(false);
    await renderScreen(live().app, <AuthSettingsPage project={live().project} />);
    const user = userEvent.setup();
    const magicLink = screen.getByRole("switch", { name: /Magic link/ }) as HTMLInputElement;
    expect(magicLink.checked).toBe(false);
    await user.click(magicLink);
    await user.click(screen.getByRole("switch", { name: /Client user deletion/ }));
    await user.click(screen.getByRole("button", { name: "Save sign-in settings" }));
    expect(await screen.findByText("Sign-in settings saved.")).toBeTruthy();
    expect(magicLink.checked).toBe(true);
    const config = (await clientView()).config;
    expect(config.magic_link_enabled).toBe(true);
    expect(config.client_user_deletion_enabled).toBe(true);
    expect(config.credential_enabled).toBe(true);
  });

  it("refuses a standard provider without its secret, then saves it with both keys", async () => {
    await renderScreen(live().app, <AuthSettingsPage project={live().project} />);
    expect(screen.getByText(/No OAuth providers yet/)).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Add provider" }));
    const form = screen.getByRole("form", { name: "Add a provider" });
    await user.selectOptions(within(form).getByLabelText("Provider"), "microsoft");
    // Shared keys need no callback URL of the project's own; its own OAuth app does.
    expect(within(form).queryByLabelText("Callback URL")).toBeNull();
    await user.click(within(form).getByRole("radio", { name: /Standard/ }));
    const callback = within(form).getByLabelText<HTMLInputElement>("Callback URL");
    expect(callback.value).toBe(`${window.location.origin}/api/v1/auth/oauth/callback/microsoft`);
    expect(callback.readOnly).toBe(true);
    await user.click(within(form).getByRole("button", { name: "Copy callback URL" }));
    expect(await navigator.clipboard.readText()).toBe(callback.value);
    expect(within(form).getByText("Callback URL copied.")).toBeTruthy();
    await user.type(within(form).getByLabelText("Client id"), "ms-client");
    await user.type(within(form).getByLabelText("Tenant id (optional)"), "contoso");
    await user.click(within(form).getByRole("button", { name: "Add provider" }));
    expect(within(form).getByText("Enter the client secret of your OAuth app.")).toBeTruthy();
    expect(document.activeElement).toBe(within(form).getByLabelText("Client secret"));
    expect(await providers()).toEqual([]);

    await user.type(within(form).getByLabelText("Client secret"), "ms-secret");
    await user.click(within(form).getByRole("button", { name: "Add provider" }));
    expect(await screen.findByText("Microsoft added.")).toBeTruthy();
    const table = screen.getByRole("table", { name: "OAuth providers" });
    expect(within(table).getByText("Enabled")).toBeTruthy();
    expect(await providers()).toMatchObject([
      {
        id: "microsoft",
        type: "standard",
        enabled: true,
        clientId: "ms-client",
        clientSecret: "ms-secret",
        microsoftTenantId: "contoso",
      },
    ]);
    expect((await clientView()).config.enabled_oauth_providers).toEqual([{ id: "microsoft" }]);
  });

  it("adds a shared provider and an OpenID Connect one, disables and removes them", async () => {
    await renderScreen(live().app, <AuthSettingsPage project={live().project} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Add provider" }));
    let form = screen.getByRole("form", { name: "Add a provider" });
    await user.selectOptions(within(form).getByLabelText("Provider"), "github");
    expect((within(form).getByRole("radio", { name: /Shared/ }) as HTMLInputElement).checked).toBe(true);
    await user.click(within(form).getByRole("button", { name: "Add provider" }));
    expect(await screen.findByText("GitHub added.")).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "Add provider" }));
    form = screen.getByRole("form", { name: "Add a provider" });
    await user.selectOptions(within(form).getByLabelText("Provider"), "oidc");
    expect((within(form).getByRole("radio", { name: /Shared/ }) as HTMLInputElement).disabled).toBe(true);
    await user.type(within(form).getByLabelText("Name (optional)"), "corp");
    await user.type(within(form).getByLabelText("Client id"), "corp-id");
    await user.type(within(form).getByLabelText("Client secret"), "corp-secret");
    await user.type(within(form).getByLabelText("Issuer URL"), "accounts.corp.example");
    await user.click(within(form).getByRole("button", { name: "Add provider" }));
    expect(within(form).getByText("Enter the issuer URL, like https://accounts.example.com.")).toBeTruthy();
    await user.clear(within(form).getByLabelText("Issuer URL"));
    await user.type(within(form).getByLabelText("Issuer URL"), "https://accounts.corp.example");
    await user.click(within(form).getByRole("button", { name: "Add provider" }));
    expect(await screen.findByText("OpenID Connect (corp) added.")).toBeTruthy();
    expect((await providers()).map((p) => [p.id, p.type, p.issuerUrl])).toEqual([
      ["microsoft", "standard", undefined],
      ["github", "shared", undefined],
      ["oidc-corp", "standard", "https://accounts.corp.example"],
    ]);

    await user.click(screen.getByRole("button", { name: "Edit OpenID Connect (corp)" }));
    const edit = screen.getByRole("form", { name: "Edit OpenID Connect (corp)" });
    expect((within(edit).getByLabelText("Client secret") as HTMLInputElement).value).toBe("corp-secret");
    await user.clear(within(edit).getByLabelText("Client id"));
    await user.type(within(edit).getByLabelText("Client id"), "corp-id-2");
    await user.click(within(edit).getByRole("button", { name: "Save provider" }));
    expect(await screen.findByText("OpenID Connect (corp) saved.")).toBeTruthy();
    expect((await providers()).find((p) => p.id === "oidc-corp")).toMatchObject({
      clientId: "corp-id-2",
      clientSecret: "corp-secret",
      issuerUrl: "https://accounts.corp.example",
    });

    await user.click(screen.getByRole("button", { name: "Disable GitHub" }));
    expect(await screen.findByText("GitHub disabled.")).toBeTruthy();
    expect((await clientView()).config.enabled_oauth_providers).toEqual([
      { id: "microsoft" },
      { id: "oidc-corp" },
    ]);

    await user.click(screen.getByRole("button", { name: "Remove Microsoft" }));
    await user.click(screen.getByRole("button", { name: "Yes, remove" }));
    await waitFor(() => expect(screen.queryByRole("button", { name: "Remove Microsoft" })).toBeNull());
    expect((await providers()).map((p) => [p.id, p.enabled])).toEqual([
      ["github", false],
      ["oidc-corp", true],
    ]);
  });

  it("saves the project logo from an address or an uploaded image, previews it, and refuses a bad one", async () => {
    await renderScreen(live().app, <AuthSettingsPage project={live().project} />);
    const user = userEvent.setup();
    const form = screen.getByRole("form", { name: "Project logo" });
    const logo = within(form).getByLabelText<HTMLInputElement>("Logo");
    // Plain http would be mixed content on the sign-in page: refused before sending.
    await user.type(logo, "http://cdn.example.com/logo.png");
    await user.click(within(form).getByRole("button", { name: "Save logo" }));
    expect(await within(form).findByText(/Enter an https address/)).toBeTruthy();
    await user.clear(logo);
    await user.type(logo, "https://cdn.example.com/logo.png");
    // The preview shows it on a light and a dark card before saving.
    const previews = within(form).getAllByRole("img");
    expect(previews.map((img) => img.getAttribute("src"))).toEqual([
      "https://cdn.example.com/logo.png",
      "https://cdn.example.com/logo.png",
    ]);
    // An uploaded SVG becomes the dark-mode logo, kept inline.
    const svg = new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], "dark.svg", {
      type: "image/svg+xml",
    });
    const [, darkUpload] = within(form).getAllByLabelText<HTMLInputElement>("Upload an image…");
    await user.upload(darkUpload as HTMLInputElement, svg);
    expect(await within(form).findByDisplayValue("(uploaded image)")).toBeTruthy();
    await user.click(within(form).getByRole("button", { name: "Save logo" }));
    expect(await within(form).findByText("Logo saved.")).toBeTruthy();
    const saved = await live().project.app.getProject();
    expect(saved.logoUrl).toBe("https://cdn.example.com/logo.png");
    expect(saved.logoDarkModeUrl).toMatch(/^data:image\/svg\+xml;base64,/);
    // The sign-in pages read it from the client view.
    expect(await clientView()).toMatchObject({ logo_url: "https://cdn.example.com/logo.png" });
  });
});
