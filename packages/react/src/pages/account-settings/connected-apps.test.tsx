// @vitest-environment happy-dom
// [GO] The connected apps section against a real server: the apps the user let sign them in through the project's
// OpenID Provider (granted the way the consent step grants), with what each may see, and removing one's access.
import { cleanup, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createLive, type LiveSetup } from "../../test-support/live.ts";
import { renderSettings, section, signUp } from "./test-helpers.tsx";

let live: LiveSetup;
beforeAll(async () => {
  live = await createLive({ domains: [{ domain: "https://app.example.com", handler_path: "/handler" }] });
});
afterAll(() => live.close());
afterEach(cleanup);

/** Registers an app and grants it `scope` for the signed-in user, as accepting its consent page does. */
async function grantApp(name: string, scope: string) {
  const client = await live.admin("POST", "/oidc-provider/clients", {
    display_name: name,
    type: "confidential",
    redirect_uris: ["https://rp.example.com/callback"],
  });
  const user = await live.app.getUser({ or: "throw" });
  const provider = await live.server.deps.oidcProvider.providerFor(live.keys.projectId);
  const grant = new provider.Grant({ accountId: user.id, clientId: client.client_id });
  grant.addOIDCScope(scope);
  await grant.save();
  return client.client_id as string;
}

describe("connected apps", () => {
  it("says so when no app is connected", async () => {
    await signUp(live);
    await renderSettings(live);
    const apps = await section("Connected apps");
    expect(await apps.findByText("You have not let any app sign you in.")).toBeTruthy();
  });

  it("lists the granted apps with what they may see, and removes one's access after confirming", async () => {
    await signUp(live);
    await grantApp("Team Wiki", "openid email");
    await grantApp("Grafana", "openid profile");
    await renderSettings(live);
    const apps = await section("Connected apps");
    const items = await apps.findAllByRole("listitem");
    expect(items).toHaveLength(2);
    const wiki = items.find((item) => within(item).queryByText("Team Wiki")) as HTMLElement;
    expect(within(wiki).getByText("Know who you are · See your e-mail address")).toBeTruthy();

    await userEvent.click(within(wiki).getByRole("button", { name: "Remove access" }));
    expect(
      within(wiki).getByText("Remove access for Team Wiki? It will have to ask you again."),
    ).toBeTruthy();
    await userEvent.click(within(wiki).getByRole("button", { name: "Remove access" }));
    await waitFor(() => expect(apps.getAllByRole("listitem")).toHaveLength(1));
    expect(apps.getByText("Grafana")).toBeTruthy();
    expect((await live.app.listOidcGrants()).map((g) => g.display_name)).toEqual(["Grafana"]);
  });
});
