// For the dashboard's component tests: the real server app in process with an operator signed in to the internal
// project (memory token store) who owns one fresh project, the hooks that give a test file one of those for all its
// tests, and a render helper that mounts a screen the way the dashboard does (provider, Suspense, error boundary).
// Admin calls go through the operator's session, as in use.
import { type CurrentInternalUser, type OwnedProject, StackAdminApp, StackClientApp } from "@gatehouse/react";
import { inProcessFetch } from "@gatehouse/react/test-support/live.ts";
import { createTestServer } from "@gatehouse/server/testing/test-server";
import { cleanup } from "@testing-library/react";
import { afterAll, afterEach, beforeAll } from "vitest";

/** Mounts a screen as the dashboard would, and lets suspended reads settle before the test looks. */
export { renderWithApp as renderScreen } from "@gatehouse/react/test-support/render.tsx";

let operators = 0;

type ServerOptions = Parameters<typeof createTestServer>[0];

/**
 * A test server (with `serverOptions`, such as refusing private webhook URLs), an operator of the internal project,
 * and a project they own (`config` in wire snake_case).
 */
export async function createDashboardLive(
  config: Record<string, unknown> = {},
  serverOptions: ServerOptions = {},
) {
  const server = await createTestServer(serverOptions);
  /** Every request the dashboard's apps sent ("GET /api/v1/users?limit=20"), for tests of how much a screen reads. */
  const requests: string[] = [];
  const send = inProcessFetch(server);
  const app = new StackClientApp({
    projectId: "internal",
    adminAppClass: StackAdminApp,
    publishableClientKey: server.internal.pck,
    baseUrl: "http://localhost:8102",
    tokenStore: "memory",
    fetch: (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const method = init?.method ?? (input instanceof Request ? input.method : "GET");
      requests.push(`${method} ${url.pathname}${url.search}`);
      return send(input, init);
    },
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
  return { server, app, operator, project, requests, close: () => server.close() };
}

export type DashboardLive = Awaited<ReturnType<typeof createDashboardLive>>;

/**
 * One live for all the tests of a file: made before them (`config` and `serverOptions` as for createDashboardLive),
 * closed after them, and each test's screen unmounted after it. Returns the live's getter, for tests and later hooks.
 */
export function dashboardLiveSuite(
  config: Record<string, unknown> = {},
  serverOptions: ServerOptions = {},
): () => DashboardLive {
  let live: DashboardLive | undefined;
  beforeAll(async () => {
    live = await createDashboardLive(config, serverOptions);
  });
  afterAll(async () => {
    await live?.close();
  });
  afterEach(cleanup);
  return () => {
    if (!live) throw new Error("The live is made in beforeAll: use it in tests and hooks.");
    return live;
  };
}
