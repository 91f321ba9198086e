// @vitest-environment happy-dom
// "Continue with SSO" against a real server: an address whose domain no team verified is told so in place; a sign-in
// page opened with ?sso_connection_id= (where an IdP-initiated SAML sign-in lands) goes straight to the identity
// provider. The sign-up page has no SSO button.
import { screen, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { generate } from "selfsigned";
import { beforeEach, describe, expect, it } from "vitest";
import { renderWithApp, visit } from "../../test-support/render.tsx";
import { SignIn, SignUp } from "./auth-form.tsx";
import { liveSuite } from "./test-helpers.ts";

const IDP_SSO_URL = "https://idp.corp.example/sso";

describe("Continue with SSO", () => {
  const live = liveSuite();
  beforeEach(() => visit("/handler/sign-in"));

  it("explains in place that no single sign-on serves the address", async () => {
    const user = userEvent.setup();
    await renderWithApp(live.newApp(), <SignIn />);
    await user.click(screen.getByRole("button", { name: "Continue with SSO" }));
    const form = screen.getByRole("form", { name: "Continue with SSO" });
    await user.type(within(form).getByLabelText("E-mail"), "ada@nowhere.example");
    await user.click(within(form).getByRole("button", { name: "Continue with SSO" }));
    expect(await within(form).findByText(/No single sign-on is set up for this address/)).toBeTruthy();
    expect(live.navigations).toEqual([]);
  });

  it("starts the connection's sign-in at once when the page names one", async () => {
    const team = await live.admin("POST", "/teams", { display_name: "Corp" });
    const pems = await generate([{ name: "commonName", value: "corp-idp" }], { keySize: 2048 });
    const connection = await live.admin("POST", `/teams/${team.id}/sso-connections`, {
      protocol: "saml",
      display_name: "Corp",
      saml: {
        idp_entity_id: "https://idp.corp.example",
        idp_sso_url: IDP_SSO_URL,
        idp_certificates: [pems.cert],
      },
    });
    visit(`/handler/sign-in?sso_connection_id=${connection.id}`);
    await renderWithApp(live.newApp(), <SignIn />);
    await expect
      .poll(() => live.navigations[0] ?? "", { timeout: 10_000 })
      .toMatch(/^https:\/\/idp\.corp\.example\/sso\?SAMLRequest=/);
  });

  it("is not on the sign-up page", async () => {
    visit("/handler/sign-up");
    await renderWithApp(live.newApp(), <SignUp />);
    expect(screen.queryByRole("button", { name: "Continue with SSO" })).toBeNull();
  });
});
