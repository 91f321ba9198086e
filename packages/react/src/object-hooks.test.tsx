// @vitest-environment happy-dom
// Stack's object-method hooks against a real server: app.useUser / app.useProject on this package's StackClientApp,
// user.useTeams / useTeam / usePermission / useContactChannels and team.useUsers on the objects they hand out, a
// write refreshing them in place (no Suspense fallback), any SDK app equipped through useStackApp, an admin project's
// useConfig, and a server app's useUsers / useTeam.

import { StackAdminApp } from "@gatehouse/sdk";
import { cleanup, screen } from "@testing-library/react";
import { Suspense, useLayoutEffect } from "react";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { StackClientApp, StackServerApp, type WithAppHooks } from "./app-hooks.ts";
import type { CurrentUser, Team } from "./object-types.ts";
import { useStackApp } from "./provider.tsx";
import { createLive, inProcessFetch, type LiveSetup } from "./test-support/live.ts";
import { renderWithApp } from "./test-support/render.tsx";

let live: LiveSetup;
beforeAll(async () => {
  live = await createLive({ client_team_creation_enabled: true });
});
afterAll(() => live.close());
afterEach(cleanup);

const newApp = () =>
  new StackClientApp({
    projectId: live.keys.projectId,
    publishableClientKey: live.keys.pck,
    baseUrl: "http://localhost:8102",
    tokenStore: "memory",
    fetch: inProcessFetch(live.server),
    redirectMethod: "none",
  });

async function signedUpApp() {
  const app = newApp();
  const email = `${crypto.randomUUID()}@example.com`;
  await app.signUpWithCredential({ email, password: "correct horse battery", noRedirect: true });
  return { app, email };
}

/** How often the dashboard was hidden by a Suspense fallback (React cleans up layout effects when it hides). */
let hidden = 0;

function Members({ team, user }: { team: Team; user: CurrentUser }) {
  const users = team.useUsers();
  const canRead = user.usePermission(team, "$read_members");
  return (
    <li>
      {team.displayName}: {users.length} member(s), can read members: {canRead ? "yes" : "no"}
    </li>
  );
}

function Dashboard({ app, pick }: { app: StackClientApp; pick: string }) {
  const user = app.useUser({ or: "throw" });
  const project = app.useProject();
  const teams = user.useTeams();
  const first = user.useTeam(teams.find((team) => team.displayName === pick)?.id ?? "none");
  const channels = user.useContactChannels();
  useLayoutEffect(() => () => void hidden++, []);
  return (
    <div>
      <p>project: {project.displayName}</p>
      <p>email: {channels.map((channel) => channel.value).join(",")}</p>
      <p>first: {first?.displayName ?? "none"}</p>
      <ul>
        {teams.map((team) => (
          <Suspense key={team.id} fallback={<li>members loading</li>}>
            <Members team={team} user={user} />
          </Suspense>
        ))}
      </ul>
    </div>
  );
}

describe("hooks on the app and its objects", () => {
  it("reads the user, project, teams, members, channels and permission through the objects", async () => {
    const { app, email } = await signedUpApp();
    const user = await app.getUser({ or: "throw" });
    await user.createTeam({ displayName: "Rocket" });
    await renderWithApp(app, <Dashboard app={app} pick="Rocket" />);
    expect(await screen.findByText("Rocket: 1 member(s), can read members: yes")).toBeTruthy();
    expect(screen.getByText("project: Live test")).toBeTruthy();
    expect(screen.getByText(`email: ${email}`)).toBeTruthy();
    expect(screen.getByText("first: Rocket")).toBeTruthy();
  });

  it("shows a write through the user object in place, without a fallback", async () => {
    const { app } = await signedUpApp();
    const user = await app.getUser({ or: "throw" });
    await user.createTeam({ displayName: "First" });
    await renderWithApp(app, <Dashboard app={app} pick="First" />);
    expect(await screen.findByText("first: First")).toBeTruthy();
    hidden = 0;
    await user.createTeam({ displayName: "Later" });
    expect(
      await screen.findByText("Later: 1 member(s), can read members: yes", {}, { timeout: 8000 }),
    ).toBeTruthy();
    expect(screen.getByText("First: 1 member(s), can read members: yes")).toBeTruthy();
    // The new team's members load under its own boundary; the dashboard itself was never hidden by a fallback.
    expect(hidden).toBe(0);
  });

  it("equips the SDK's own app through useStackApp", async () => {
    function ProjectName() {
      const app = useStackApp();
      return <p>via useStackApp: {app.useProject().displayName}</p>;
    }
    await renderWithApp(live.app, <ProjectName />);
    expect(await screen.findByText("via useStackApp: Live test")).toBeTruthy();
  });

  it("gives an admin app's project useConfig, which shows a config write in place", async () => {
    const adminApp = new StackAdminApp({
      projectId: live.keys.projectId,
      superSecretAdminKey: live.keys.sak,
      baseUrl: "http://localhost:8102",
      tokenStore: "memory",
      fetch: inProcessFetch(live.server),
      redirectMethod: "none",
    });
    type Rendered = { payments?: { items?: Record<string, { displayName: string }> } };
    function Items() {
      // The provider's app is the admin app: its project is Stack's AdminProject.
      const app = useStackApp() as unknown as WithAppHooks<StackAdminApp>;
      const config = app.useProject().useConfig() as Rendered;
      useLayoutEffect(() => () => void hidden++, []);
      const names = Object.values(config.payments?.items ?? {}).map((item) => item.displayName);
      return <p>items: {names.join(",") || "none"}</p>;
    }
    await renderWithApp(adminApp, <Items />);
    expect(await screen.findByText("items: none")).toBeTruthy();
    hidden = 0;
    // A write through another project object of the same app: the hook reads again and keeps showing meanwhile.
    const project = await adminApp.getProject();
    await project.updateConfig({ "payments.items.cup": { displayName: "Cup" } });
    expect(await screen.findByText("items: Cup", {}, { timeout: 8000 })).toBeTruthy();
    expect(hidden).toBe(0);
  });

  it("gives a server app useUsers and useTeam", async () => {
    const { app } = await signedUpApp();
    const user = await app.getUser({ or: "throw" });
    const team = await user.createTeam({ displayName: "Server side" });
    const server = new StackServerApp({
      projectId: live.keys.projectId,
      publishableClientKey: live.keys.pck,
      secretServerKey: live.keys.ssk,
      baseUrl: "http://localhost:8102",
      tokenStore: "memory",
      fetch: inProcessFetch(live.server),
      redirectMethod: "none",
    });
    function Admin() {
      const users = server.useUsers();
      const found = server.useTeam(team.id);
      return (
        <p>
          users: {users.length > 0 ? "some" : "none"}, team: {found?.displayName}
        </p>
      );
    }
    await renderWithApp(server, <Admin />);
    expect(await screen.findByText("users: some, team: Server side")).toBeTruthy();
  });
});
