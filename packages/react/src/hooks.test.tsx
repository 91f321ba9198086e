// @vitest-environment happy-dom
// The hooks against a real StackClientApp over an in-memory server: the provider requirement, useUser's suspense
// (no signed-out flash), updates and sign-out in place, the `or` modes, and the project, team, permission and
// contact-channel reads, each fetched once however many components use it.
import type { CurrentUser, StackClientApp } from "@gatehouse/sdk";
import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import { Component, type ReactNode, Suspense } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  useApiKeys,
  useContactChannels,
  usePermission,
  usePermissions,
  useProject,
  useTeam,
  useTeams,
  useUser,
} from "./hooks.ts";
import { StackProvider, useStackApp } from "./provider.tsx";
import { createTestApp } from "./testing.ts";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    return this.state.error ? <p>error: {this.state.error.message}</p> : this.props.children;
  }
}

/**
 * Renders `children` under a provider, a boundary and a Suspense whose fallback counts how often it showed. Rendering
 * inside an awaited act lets React retry suspended components when their promises settle.
 */
async function mount(app: StackClientApp, children: ReactNode) {
  const fallback = { renders: 0 };
  function Fallback() {
    fallback.renders++;
    return <p>loading</p>;
  }
  await act(async () => {
    render(
      <StackProvider app={app}>
        <ErrorBoundary>
          <Suspense fallback={<Fallback />}>{children}</Suspense>
        </ErrorBoundary>
      </StackProvider>,
    );
  });
  return { fallback };
}

/** Shows the user's name (or "signed out"), recording each render's user. */
function UserName({
  seen,
  options,
}: {
  seen: (CurrentUser | null)[];
  options?: Parameters<typeof useUser>[0];
}) {
  const user = useUser(options);
  seen.push(user);
  return <p>{user ? `name: ${user.displayName}` : "signed out"}</p>;
}

describe("outside a provider", () => {
  const hooks: [string, () => unknown][] = [
    ["useStackApp", () => useStackApp()],
    ["useUser", () => useUser()],
    ["useProject", () => useProject()],
    ["useTeams", () => useTeams()],
    ["useTeam", () => useTeam("t1")],
    ["usePermission", () => usePermission({ id: "t1" }, "$read_members")],
    ["usePermissions", () => usePermissions({ id: "t1" })],
    ["useContactChannels", () => useContactChannels()],
    ["useApiKeys", () => useApiKeys()],
  ];
  it.each(hooks)("%s throws an error that says it needs <StackProvider>", (_name, hook) => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    function Uses() {
      hook();
      return null;
    }
    expect(() => render(<Uses />)).toThrow("useStackApp must be used inside a <StackProvider>.");
  });
});

describe("useUser", () => {
  it("shows the fallback until the user is known, then the user, never signed out in between", async () => {
    const { app, server, signIn } = createTestApp();
    await signIn();
    const release = server.holdUserReads();
    const seen: (CurrentUser | null)[] = [];
    const { fallback } = await mount(app, <UserName seen={seen} />);
    expect(screen.getByText("loading")).toBeDefined();
    expect(seen).toEqual([]);
    await act(async () => release());
    expect(await screen.findByText("name: Ada")).toBeDefined();
    expect(seen.length).toBeGreaterThan(0);
    expect(seen).not.toContain(null);
    expect(fallback.renders).toBe(1);
    expect(server.count("GET", "/users/me")).toBe(1);
  });

  it("re-renders in place with the new name after user.update", async () => {
    const { app, server, signIn } = createTestApp();
    await signIn();
    const seen: (CurrentUser | null)[] = [];
    const { fallback } = await mount(app, <UserName seen={seen} />);
    await screen.findByText("name: Ada");
    const user = seen.at(-1)!;
    await act(() => user.update({ displayName: "Grace" }));
    expect(await screen.findByText("name: Grace")).toBeDefined();
    expect(seen).not.toContain(null);
    expect(fallback.renders).toBe(1);
    expect(server.count("PATCH", "/users/me")).toBe(1);
    // The same user object while nothing changed: a render does not read again.
    expect(new Set(seen.map((u) => u?.displayName))).toEqual(new Set(["Ada", "Grace"]));
    expect(server.count("GET", "/users/me")).toBe(2);
  });

  it("renders null after sign-out", async () => {
    const { app, signIn, navigated } = createTestApp();
    await signIn();
    const seen: (CurrentUser | null)[] = [];
    await mount(app, <UserName seen={seen} />);
    await screen.findByText("name: Ada");
    await act(() => seen.at(-1)!.signOut());
    expect(await screen.findByText("signed out")).toBeDefined();
    expect(seen.at(-1)).toBeNull();
    expect(navigated).toEqual(["/"]);
  });

  it("renders null with nobody signed in, after the fallback", async () => {
    const { app } = createTestApp();
    const seen: (CurrentUser | null)[] = [];
    await mount(app, <UserName seen={seen} />);
    expect(await screen.findByText("signed out")).toBeDefined();
    expect(seen).toEqual([null]);
  });

  it('throws to the error boundary with { or: "throw" } and nobody signed in', async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { app } = createTestApp();
    await mount(app, <UserName seen={[]} options={{ or: "throw" }} />);
    expect(await screen.findByText(/error: User is not signed in/)).toBeDefined();
  });

  it('goes to sign-in once with { or: "redirect" } and stays suspended; a later mount goes again', async () => {
    const { app, navigated } = createTestApp();
    const seen: (CurrentUser | null)[] = [];
    const protectedPage = (
      <>
        <UserName seen={seen} options={{ or: "redirect" }} />
        <UserName seen={seen} options={{ or: "redirect" }} />
      </>
    );
    await mount(app, protectedPage);
    await waitFor(() => expect(navigated).toHaveLength(1));
    const target = new URL(navigated[0]!, window.location.href);
    expect(target.pathname).toBe("/handler/sign-in");
    expect(target.searchParams.get("after_auth_return_to")).toBe(
      window.location.pathname + window.location.search,
    );
    expect(screen.getByText("loading")).toBeDefined();
    expect(seen).toEqual([]);
    // Back on the page through a router, still signed out: it sends the user to sign in again.
    cleanup();
    await mount(app, protectedPage);
    await waitFor(() => expect(navigated).toHaveLength(2));
    expect(seen).toEqual([]);
  });

  it("throws a failed first read to the error boundary, without reading again in a loop", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { app, server, signIn } = createTestApp();
    await signIn();
    server.state.failUserReads = true;
    await mount(app, <UserName seen={[]} />);
    expect(await screen.findByText(/^error: /)).toBeDefined();
    await act(() => new Promise((resolve) => setTimeout(resolve, 400)));
    expect(server.count("GET", "/users/me")).toBe(1);
  });

  it('signs up an anonymous user once with { or: "anonymous" }, whom the default mode does not count', async () => {
    const { app, server } = createTestApp();
    const anonymous: (CurrentUser | null)[] = [];
    const plain: (CurrentUser | null)[] = [];
    await mount(
      app,
      <>
        <UserName seen={anonymous} options={{ or: "anonymous" }} />
        <UserName seen={anonymous} options={{ or: "anonymous" }} />
        <UserName seen={plain} />
      </>,
    );
    expect(await screen.findAllByText("name: Anonymous")).toHaveLength(2);
    expect(screen.getByText("signed out")).toBeDefined();
    expect(anonymous.every((u) => u?.isAnonymous)).toBe(true);
    expect(plain.at(-1)).toBeNull();
    expect(server.count("POST", "/auth/anonymous/sign-up")).toBe(1);
  });
});

describe("useProject", () => {
  it("renders the project, read once for several components", async () => {
    const { app, server } = createTestApp();
    function ProjectName() {
      const project = useProject();
      return (
        <p>
          {project.displayName} ({project.config.oauthProviders.map((p) => p.id).join(", ")})
        </p>
      );
    }
    await mount(
      app,
      <>
        <ProjectName />
        <ProjectName />
      </>,
    );
    expect(await screen.findAllByText("Shop (github)")).toHaveLength(2);
    expect(server.count("GET", "/projects/current")).toBe(1);
  });
});

describe("the user's teams, permissions and contact channels", () => {
  function TeamList() {
    const teams = useTeams();
    return <p>teams: {teams.map((t) => t.displayName).join(", ")}</p>;
  }

  it("lists the teams, fetching /teams once for several components", async () => {
    const { app, server, signIn } = createTestApp();
    await signIn();
    function OneTeam({ id }: { id: string }) {
      return (
        <p>
          team {id}: {useTeam(id)?.displayName ?? "none"}
        </p>
      );
    }
    await mount(
      app,
      <>
        <TeamList />
        <TeamList />
        <OneTeam id="t2" />
        <OneTeam id="t9" />
      </>,
    );
    expect(await screen.findAllByText("teams: Engineering, Sales")).toHaveLength(2);
    expect(screen.getByText("team t2: Sales")).toBeDefined();
    expect(screen.getByText("team t9: none")).toBeDefined();
    expect(server.count("GET", "/teams")).toBe(1);
  });

  it("reads the teams again after a write, keeping the old list on screen meanwhile", async () => {
    const { app, server, signIn } = createTestApp();
    await signIn();
    let teams: ReturnType<typeof useTeams> = [];
    function Teams() {
      teams = useTeams();
      return <TeamList />;
    }
    const { fallback } = await mount(app, <Teams />);
    await screen.findByText("teams: Engineering, Sales");
    await act(() => teams[0]!.update({ displayName: "Research" }));
    expect(await screen.findByText("teams: Research, Sales")).toBeDefined();
    expect(fallback.renders).toBe(1);
    expect(server.count("GET", "/teams")).toBe(2);
  });

  it("has no teams without a user", async () => {
    const { app, server } = createTestApp();
    await mount(app, <TeamList />);
    expect(await screen.findByText(/^teams:\s*$/)).toBeDefined();
    expect(server.count("GET", "/teams")).toBe(0);
  });

  it("answers whether the user has a permission in a team", async () => {
    const { app, server, signIn } = createTestApp();
    await signIn();
    function Can({ team, permission }: { team: string; permission: string }) {
      const granted = usePermission({ id: team }, permission);
      return (
        <p>
          {team} {permission}: {granted ? "yes" : "no"}
        </p>
      );
    }
    await mount(
      app,
      <>
        <Can team="t1" permission="$read_members" />
        <Can team="t1" permission="$update_team" />
        <Can team="t2" permission="$read_members" />
      </>,
    );
    expect(await screen.findByText("t1 $read_members: yes")).toBeDefined();
    expect(screen.getByText("t1 $update_team: no")).toBeDefined();
    expect(screen.getByText("t2 $read_members: no")).toBeDefined();
    // One read per team, shared by the components asking about it.
    expect(server.count("GET", "/team-permissions")).toBe(2);
  });

  it("lists the contact channels", async () => {
    const { app, signIn } = createTestApp();
    await signIn();
    function Channels() {
      return <p>{useContactChannels().map((c) => `${c.value}${c.isPrimary ? " (primary)" : ""}`)}</p>;
    }
    await mount(app, <Channels />);
    expect(await screen.findByText("ada@example.com (primary)")).toBeDefined();
  });
});

describe("useApiKeys", () => {
  it("lists the user's keys, or a team's, and reads again after a key is created", async () => {
    const { app, server, signIn } = createTestApp();
    await signIn();
    server.state.apiKeys = [{ description: "ci" }, { description: "deploy", team_id: "t1" }];
    function OwnKeys() {
      return (
        <p>
          keys:{" "}
          {useApiKeys()
            .map((k) => `${k.description} ${k.value.lastFour}`)
            .join(", ")}
        </p>
      );
    }
    function TeamKeys() {
      const team = useTeam("t1");
      return (
        <p>
          team keys:{" "}
          {useApiKeys(team ?? { id: "none", listApiKeys: async () => [] })
            .map((k) => k.description)
            .join(", ")}
        </p>
      );
    }
    await mount(
      app,
      <>
        <OwnKeys />
        <TeamKeys />
      </>,
    );
    expect(await screen.findByText("keys: ci abcd")).toBeDefined();
    expect(await screen.findByText("team keys: deploy")).toBeDefined();
    const user = await app.getUser({ or: "throw" });
    await act(() => user.createApiKey({ description: "new", expiresAt: null }));
    expect(await screen.findByText("keys: ci abcd, new abcd")).toBeDefined();
    expect(server.count("POST", "/user-api-keys")).toBe(1);
  });
});
