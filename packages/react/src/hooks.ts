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
import { useSyncExternalStore } from "react";
import { useStackContext } from "./provider.tsx";
import { settled, type Tracked } from "./store.ts";

/**
 * The value of a tracked promise: suspends while it is pending (by throwing it: unlike `use`, a component may stop
 * asking once it has the value, as useUser does after the first read), throws what it failed with.
 */
function read<T>(tracked: Tracked<T>): T {
  const outcome = tracked.outcome;
  if (!outcome) throw tracked.promise;
  if ("error" in outcome) throw outcome.error;
  return outcome.value;
}

/** What a component waits on while the page goes elsewhere. */
const never = new Promise<never>(() => {});

/** The signed-in user, with getUser's options; suspends until the session's user is first known. */
export function useUser(options: GetUserOptions & { or: "redirect" | "throw" | "anonymous" }): CurrentUser;
export function useUser(options?: GetUserOptions): CurrentUser | null;
export function useUser(options: GetUserOptions = {}): CurrentUser | null {
  const { app, store } = useStackContext();
  const { or = "return-null", includeRestricted = false, tokenStore } = options;
  const source = store.userSource(tokenStore);
  const snapshot = useSyncExternalStore(source.subscribe, source.getSnapshot, source.getSnapshot);
  const known =
    snapshot !== undefined
      ? snapshot
      : // Nothing read yet: suspend until the first read has answered.
        read(
          source.pending("read", async () => {
            for (;;) {
              await app.getUser({ tokenStore, includeRestricted: true });
              const user = source.getSnapshot();
              if (user !== undefined) return user;
            }
          }),
        );
  // getUser's rule: anonymous users count only when asked for; restricted ones when asked for (or anonymous ones are).
  const includeAnonymous = or === "anonymous";
  const hidden =
    known &&
    ((known.isAnonymous && !includeAnonymous) ||
      (known.isRestricted && !(includeRestricted || includeAnonymous)));
  const user = hidden ? null : known;
  if (user) return user;
  if (or === "throw") throw new Error("User is not signed in but useUser was called with { or: 'throw' }.");
  if (or === "redirect") {
    // One redirect for the components asking at once; a component mounted later (back from sign-in through a
    // router, still signed out) redirects again. Meanwhile it stays suspended; a failed redirect is thrown.
    const redirect = source.pending("redirect", () => app.redirectToSignIn());
    if (redirect.outcome && "error" in redirect.outcome) throw redirect.outcome.error;
    throw redirect.promise.then(() => never);
  }
  if (or === "anonymous") return read(source.pending("anonymous", () => app.getUser({ tokenStore, or })));
  return null;
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
 */
function useUserRead<T>(name: string, load: (user: CurrentUser) => Promise<T>, signedOut: Tracked<T>): T {
  const { store } = useStackContext();
  const user = useUser();
  const { current, stale } = user
    ? store.userRead(user, name, () => load(user))
    : { current: signedOut, stale: undefined };
  const outcome = useSyncExternalStore(
    current.subscribe,
    () => current.outcome,
    () => current.outcome,
  );
  if (!outcome && stale) return stale.value;
  return read(current);
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

export function useTeams(): Team[] {
  return useUserList("teams", (user) => user.listTeams());
}

/** One of the user's teams, or null when they are not a member. */
export function useTeam(teamId: string): Team | null {
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
