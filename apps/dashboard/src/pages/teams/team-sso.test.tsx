// @vitest-environment happy-dom
// A team's SSO panels against the real server: an OIDC connection shows exactly the redirect URI to paste, a claimed
// domain shows its TXT record and a failed verification says why, and a SCIM token is shown once, listed, and revoked.
import { screen, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { dashboardLiveSuite, renderScreen } from "../../testing.tsx";
import { TeamPage } from "./team-page.tsx";

const live = dashboardLiveSuite();
let teamId = "";

beforeAll(async () => {
  teamId = (await live().project.app.createTeam({ displayName: "Corp" })).id;
});

const panel = (name: string) => screen.getByRole("region", { name });
const teamPage = () => renderScreen(live().app, <TeamPage project={live().project} teamId={teamId} />);

describe("a team's single sign-on", () => {
  it("adds an OIDC connection and shows the redirect URI to paste into the provider", async () => {
    await teamPage();
    const user = userEvent.setup();
    const sso = panel("Single sign-on");
    expect(await within(sso).findByText(/No identity provider yet/)).toBeTruthy();
    await user.click(within(sso).getByRole("button", { name: "Add connection" }));
    expect(await within(sso).findByText("Fill in every field of the connection.")).toBeTruthy();
    await user.type(within(sso).getByLabelText("Connection name"), "Okta");
    await user.type(within(sso).getByLabelText("Issuer URL"), "https://corp.okta.example");
    await user.type(within(sso).getByLabelText("Client id"), "client");
    await user.type(within(sso).getByLabelText("Client secret"), "secret");
    await user.click(within(sso).getByRole("button", { name: "Add connection" }));
    const [connection] = await live().project.app.teamSso(teamId).listConnections();
    expect(await within(sso).findByText(connection?.oidc?.redirect_uri ?? "missing")).toBeTruthy();
    expect(connection?.oidc?.redirect_uri).toMatch(/\/api\/v1\/auth\/sso\/oidc\/[0-9a-f-]+\/callback$/);
  });

  it("claims a domain, shows its TXT record, and explains a failed verification", async () => {
    await teamPage();
    const user = userEvent.setup();
    const domains = panel("SSO domains");
    await user.type(await within(domains).findByLabelText("Claim a domain"), "corp.example");
    await user.click(within(domains).getByRole("button", { name: "Claim domain" }));
    const [domain] = await live().project.app.teamSso(teamId).listDomains();
    expect(
      await within(domains).findByText(
        `${domain?.verification_record.name} TXT "${domain?.verification_record.value}"`,
      ),
    ).toBeTruthy();
    await user.click(within(domains).getByRole("button", { name: "Verify corp.example" }));
    expect(await within(domains).findByText(/could not be verified/)).toBeTruthy();
  });

  it("requires SSO for a domain's addresses and lifts it again", async () => {
    await teamPage();
    const user = userEvent.setup();
    const domains = panel("SSO domains");
    const enforced = async () => (await live().project.app.teamSso(teamId).listDomains())[0]?.enforce_sso;
    const box = await within(domains).findByRole("checkbox", { name: /^Require SSO for corp\.example/ });
    expect((box as HTMLInputElement).checked).toBe(false);
    await user.click(box);
    await vi.waitFor(async () => expect(await enforced()).toBe(true));
    await vi.waitFor(() => expect((box as HTMLInputElement).checked).toBe(true));
    await user.click(box);
    await vi.waitFor(async () => expect(await enforced()).toBe(false));
  });

  it("creates a SCIM token shown once, lists it, and revokes it", async () => {
    await teamPage();
    const user = userEvent.setup();
    const scim = panel("SCIM provisioning");
    await user.type(await within(scim).findByLabelText("New SCIM token for"), "Okta provisioning");
    await user.click(within(scim).getByRole("button", { name: "Create SCIM token" }));
    expect(await within(scim).findByText(/gh_scim_[0-9a-z]{48}/)).toBeTruthy();
    expect(within(scim).getByText(/\/api\/v1\/scim\/v2$/)).toBeTruthy();
    await within(scim).findByRole("cell", { name: "Okta provisioning" });
    await user.click(within(scim).getByRole("button", { name: "Revoke the SCIM token Okta provisioning" }));
    await user.click(await within(scim).findByRole("button", { name: "Revoke" }));
    expect(await within(scim).findByText(/No SCIM token/)).toBeTruthy();
    expect(await live().project.app.teamSso(teamId).listScimTokens()).toEqual([]);
  });
});
