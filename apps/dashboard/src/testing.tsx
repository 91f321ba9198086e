// For the dashboard's component tests: the real server app in process with an operator signed in to the internal
// project (memory token store) who owns one fresh project, and a render helper that mounts a screen the way the
// dashboard does (provider, Suspense, error boundary). Admin calls go through the operator's session, as in use.
import { type CurrentInternalUser, type OwnedProject, StackClientApp, StackProvider } from "@gatehouse/react";
import { inProcessFetch } from "@gatehouse/react/test-support/live.ts";
import { createTestServer } from "@gatehouse/server/testing/test-server";
import { act, render } from "@testing-library/react";
import { Component, type ReactNode, Suspense } from "react";

let operators = 0;

/** A test server, an operator of the internal project, and a project they own (`config` in wire snake_case). */
export async function createDashboardLive(config: Record<string, unknown> = {}) {
  const server = await createTestServer();
  const app = new StackClientApp({
    projectId: "internal",
    publishableClientKey: server.internal.pck,
    baseUrl: "http://localhost:8102",
    tokenStore: "memory",
    fetch: inProcessFetch(server),
    redirectMethod: { navigate: () => {} },
  });
  const email = `operator-${++operators}@example.com`;
  const signedUp = await app.signUpWithCredential({ email, password: "operator password", noRedirect: true });
  if (signedUp.status === "error") throw signedUp.error;
  const operator = (await app.getUser({ or: "throw" })) as CurrentInternalUser;
  const team = (await operator.listTeams())[0] ?? (await operator.createTeam({ displayName: "Operators" }));
  const created = await operator.createProject({ displayName: "Test project", teamId: team.id });
  if (Object.keys(config).length > 0)
    await created.app.getProject().then((p) => p.update({ config } as never));
  const project = (await operator.listOwnedProjects()).find((p) => p.id === created.id) as OwnedProject;
  return { server, app, operator, project, close: () => server.close() };
}

class Boundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    return this.state.error ? <p>thrown: {this.state.error.message}</p> : this.props.children;
  }
}

/** Mounts `element` as the dashboard would, and lets suspended reads settle before the test looks. */
export async function renderScreen(app: StackClientApp, element: ReactNode) {
  let result: ReturnType<typeof render> | undefined;
  await act(async () => {
    result = render(
      <StackProvider app={app}>
        <Boundary>
          <Suspense fallback={<p>loading</p>}>{element}</Suspense>
        </Boundary>
      </StackProvider>,
    );
  });
  return result as ReturnType<typeof render>;
}
