// @vitest-environment happy-dom
// The OAuth apps screen against the real server: the issuer to paste into an app, registering a confidential app
// whose secret is shown once, the list, and deleting an app after asking.
import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { dashboardLiveSuite, renderScreen } from "../testing.tsx";
import { OAuthClientsPage } from "./oauth-clients.tsx";

const live = dashboardLiveSuite();

describe("the OAuth apps screen", () => {
  it("registers an app, shows its secret once, lists and deletes it", async () => {
    const user = userEvent.setup();
    await renderScreen(live().app, <OAuthClientsPage project={live().project} />);
    expect(
      screen.getByText(`${window.location.origin}/api/v1/projects/${live().project.id}/oidc`),
    ).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "Register app" }));
    expect(await screen.findByText("Name the app.")).toBeTruthy();
    expect(screen.getByText("Give at least one redirect URI.")).toBeTruthy();

    await user.type(screen.getByLabelText("Name"), "Grafana");
    await user.type(
      screen.getByLabelText(/Redirect URIs/),
      "https://grafana.example.com/login/generic_oauth",
    );
    await user.click(screen.getByRole("checkbox", { name: /offline_access/ }));
    await user.click(screen.getByRole("button", { name: "Register app" }));

    const reveal = await screen.findByRole("region", { name: "New app: Grafana" });
    expect(within(reveal).getByText("Copy the client secret now. It will not be shown again.")).toBeTruthy();
    const clientId = within(reveal).getByText(/^ghc_[0-9a-f]{32}$/).textContent as string;
    expect(within(reveal).getByText(/^[\w-]{43}$/)).toBeTruthy();
    await user.click(within(reveal).getByRole("button", { name: "Done" }));
    expect(screen.queryByText(/^[\w-]{43}$/)).toBeNull();

    const row = (await screen.findByText(clientId)).closest("tr") as HTMLElement;
    expect(within(row).getByText("https://grafana.example.com/login/generic_oauth")).toBeTruthy();
    expect(within(row).getByText("openid profile email offline_access")).toBeTruthy();
    const stored = await live().project.app.listOidcClients();
    expect(stored.map((c) => c.client_id)).toEqual([clientId]);

    await user.click(within(row).getByRole("button", { name: "Delete Grafana" }));
    await user.click(await screen.findByRole("button", { name: "Delete" }));
    await waitFor(() => expect(screen.queryByText(clientId)).toBeNull());
    expect(await live().project.app.listOidcClients()).toEqual([]);
  });

  it("registers an app that signs a JWT with its own key: it asks for the key set URL and gets no secret", async () => {
    const user = userEvent.setup();
    await renderScreen(live().app, <OAuthClientsPage project={live().project} />);
    await user.type(screen.getByLabelText("Name"), "Passport");
    await user.type(screen.getByLabelText(/Redirect URIs/), "https://passport.example.com/callback");
    await user.selectOptions(screen.getByLabelText("How the app sends its secret"), "private_key_jwt");
    await user.click(screen.getByRole("button", { name: "Register app" }));
    expect(
      await screen.findByText("Give the https URL where the app publishes its public keys."),
    ).toBeTruthy();

    await user.type(screen.getByLabelText(/jwks_uri/), "https://passport.example.com/jwks.json");
    await user.click(screen.getByRole("button", { name: "Register app" }));
    const reveal = await screen.findByRole("region", { name: "New app: Passport" });
    const clientId = within(reveal).getByText(/^ghc_[0-9a-f]{32}$/).textContent as string;
    expect(within(reveal).queryByText(/^[\w-]{43}$/)).toBeNull();
    const stored = (await live().project.app.listOidcClients()).find((c) => c.client_id === clientId);
    expect(stored).toMatchObject({
      token_endpoint_auth_method: "private_key_jwt",
      jwks_uri: "https://passport.example.com/jwks.json",
    });
  });
});
