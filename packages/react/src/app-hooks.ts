// Stack's app-level hooks (`app.useUser()`, `app.useProject()`, `app.useAccessToken()`, and on a server app
// `app.useUsers()`, `app.useTeams()`…), and the StackClientApp / StackServerApp this package exports: the SDK's,
// whose instances carry those hooks, as @stackframe/react's do. useStackApp equips any app the same way.
import {
  type CurrentUser,
  type GetUserOptions,
  type Project,
  StackClientApp as SdkStackClientApp,
  StackServerApp as SdkStackServerApp,
} from "@gatehouse/sdk";
import { useSyncExternalStore } from "react";
import { attachHooks, equip, type ObjectHooks, type Scope, type WithHooks } from "./object-hooks.ts";
import { type BindingStore, bindingStoreOf, read } from "./store.ts";
import { useUserOf } from "./use-user.ts";

export type AppHooks<A> = ObjectHooks<A> & {
  /** The signed-in user, as `useUser` answers it, for this app. */
  useUser(options: GetUserOptions & { or: "redirect" | "throw" | "anonymous" }): WithHooks<CurrentUser>;
  useUser(options?: GetUserOptions): WithHooks<CurrentUser> | null;
  /** The project's public settings, read once (an admin app's: Stack's AdminProject, with `useConfig`). */
  useProject(): A extends SdkStackClientApp ? WithHooks<Awaited<ReturnType<A["getProject"]>>> : Project;
};

/** An app of the SDK's with Stack's hooks on it. */
export type WithAppHooks<A extends SdkStackClientApp> = A & AppHooks<A>;

/**
 * An app's reads belong to the signed-in user of the moment: they are read again when the user changes (sign-in,
 * sign-out, a write through the user object), so a token or a list never outlives the session it was read in.
 */
function useAppScope(store: BindingStore): Scope {
  const source = store.userSource(undefined);
  const user = useSyncExternalStore(source.subscribe, source.getSnapshot, source.getSnapshot);
  return { owner: user ?? store, identity: `app:${user?.id ?? ""}` };
}

/** Gives `app` (in place) Stack's app hooks, reading through the store its provider shares. */
export function attachAppHooks<A extends SdkStackClientApp>(app: A): WithAppHooks<A> {
  const store = bindingStoreOf(app);
  if (!Object.hasOwn(app, "useUser")) {
    Object.defineProperties(app, {
      useUser: { configurable: true, value: (options?: GetUserOptions) => useUserOf(app, store, options) },
      // Equipped: an admin app's project (Stack's AdminProject) carries `useConfig`.
      useProject: { configurable: true, value: () => equip(read(store.project()), store) },
    });
  }
  return attachHooks(app, store, () => useAppScope(store)) as unknown as WithAppHooks<A>;
}

class ClientApp extends SdkStackClientApp {
  constructor(...args: ConstructorParameters<typeof SdkStackClientApp>) {
    super(...args);
    attachAppHooks(this);
  }
}

class ServerApp extends SdkStackServerApp {
  constructor(...args: ConstructorParameters<typeof SdkStackServerApp>) {
    super(...args);
    attachAppHooks(this);
  }
}

/** The SDK's client app, whose instances carry Stack's hooks (`app.useUser()`…). */
export const StackClientApp = ClientApp as new (
  ...args: ConstructorParameters<typeof SdkStackClientApp>
) => WithAppHooks<SdkStackClientApp>;
export type StackClientApp = WithAppHooks<SdkStackClientApp>;

/** The SDK's server app, whose instances carry Stack's hooks (`app.useUsers()`, `app.useTeam(id)`…). */
export const StackServerApp = ServerApp as new (
  ...args: ConstructorParameters<typeof SdkStackServerApp>
) => WithAppHooks<SdkStackServerApp>;
export type StackServerApp = WithAppHooks<SdkStackServerApp>;
