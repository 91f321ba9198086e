// The hooks: the signed-in user (with getUser's options), the project, and what the user reads through their
// object (teams, permissions, contact channels). They suspend only while nothing is known yet, so a reload shows the
// Suspense fallback and then the user, never a signed-out flash; afterwards a change re-renders in place.
import type {
  ContactChannel,
  CurrentUser,
  GetUserOptions,
  OAuthProvider,
  Project,
  Team,
  TeamApiKey,
  TeamPermission,
  UserApiKey,
} from "@gatehouse/sdk";
import { equip, useOwnedRead, type WithHooks } from "./object-hooks.ts";
import { useStackContext } from "./provider.tsx";
import { read, settled, type Tracked } from "./store.ts";
import { useUserOf } from "./use-user.ts";

/** The signed-in user, with getUser's options; suspends until the session's user is first known. */
export function useUser(
  options: GetUserOptions & { or: "redirect" | "throw" | "anonymous" },
): WithHooks<CurrentUser>;
export function useUser(options?: GetUserOptions): WithHooks<CurrentUser> | null;
export function useUser(options: GetUserOptions = {}): WithHooks<CurrentUser> | null {
  const { app, store } = useStackContext();
  return useUserOf(app, store, options);
}

/** The project's public settings (GET /projects/current), read once per provider. */
export function useProject(): Project {
  return read(useStackContext().store.project());
}

/** What a signed-out user has of each list: nothing. */
const noUser = settled<never[]>(Object.freeze([]) as never[]);

/** A list read through the signed-in user object (empty when signed out), as useUserRead reads it. */
const useUserList = <T>(name: string, load: (user: CurrentUser) => Promise<T[]>): T[] =>
  useUserRead(name, load, noUser as Tracked<T[]>);

/**
 * A read through the signed-in user object, once per user object: components share it, and a new user object
 * (after a write) reads again while the previous answer stays on screen. `signedOut` is the answer without a user.
 * Objects it answers carry Stack's hooks (`team.useUsers()`).
 */
function useUserRead<T>(name: string, load: (user: CurrentUser) => Promise<T>, signedOut: Tracked<T>): T {
  const { store } = useStackContext();
  const user = useUser();
  return useOwnedRead(
    store,
    user,
    user?.id ?? "",
    name,
    () => load(user as CurrentUser).then((value) => equip(value, store)),
    signedOut,
  );
}

const notImpersonating = settled(false);

/**
 * [GO] Whether the signed-in user's session is an impersonation (an administrator acting as the user). A failed
 * check counts as none: it only decides whether a banner shows, and must not take the page down with it.
 */
export function useIsImpersonation(): boolean {
  return useUserRead(
    "impersonation",
    (user) => user.currentSession.isImpersonation().catch(() => false),
    notImpersonating,
  );
}

export function useTeams(): WithHooks<Team>[] {
  return useUserList("teams", (user) => user.listTeams() as Promise<WithHooks<Team>[]>);
}

/** One of the user's teams, or null when they are not a member. */
export function useTeam(teamId: string): WithHooks<Team> | null {
  return useTeams().find((team) => team.id === teamId) ?? null;
}

/**
 * The user's permissions in a team, or without one their project permissions (recursive: those contained in others
 * count).
 */
export function usePermissions(team?: { id: string }): TeamPermission[] {
  return useUserList(team ? `permissions:${team.id}` : "project-permissions", (user) =>
    team ? user.listPermissions(team) : user.listPermissions(),
  );
}

/** The permission if the user has it (in the team, or project-wide), else null: use it as a condition. */
export function usePermission(team: { id: string }, permissionId: string): TeamPermission | null;
export function usePermission(permissionId: string): TeamPermission | null;
export function usePermission(
  teamOrId: { id: string } | string,
  permissionId?: string,
): TeamPermission | null {
  const [team, id] = typeof teamOrId === "string" ? [undefined, teamOrId] : [teamOrId, permissionId];
  return usePermissions(team).find((permission) => permission.id === id) ?? null;
}

/** The user's linked provider accounts (Stack's `useOAuthProviders`). */
export function useOAuthProviders(): OAuthProvider[] {
  return useUserList("oauth-providers", (user) => user.listOAuthProviders());
}

export function useContactChannels(): ContactChannel[] {
  return useUserList("contact-channels", (user) => user.listContactChannels());
}

/**
 * The signed-in user's API keys, or with a team that team's (Stack's `user.useApiKeys()` and `team.useApiKeys()`;
 * a team's need `$manage_api_keys` there). Read again after a key is created or changed through the objects.
 */
export function useApiKeys(): UserApiKey[];
export function useApiKeys(team: Pick<Team, "id" | "listApiKeys">): TeamApiKey[];
export function useApiKeys(team?: Pick<Team, "id" | "listApiKeys">): (UserApiKey | TeamApiKey)[] {
  return useUserList<UserApiKey | TeamApiKey>(team ? `api-keys:${team.id}` : "api-keys", (user) =>
    team ? team.listApiKeys() : user.listApiKeys(),
  );
}
