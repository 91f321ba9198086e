// useUser's logic for one app and its store: shared by the plain `useUser()` (the provider's app) and Stack's
// `app.useUser()`. The user it answers carries Stack's object hooks (`user.useTeams()`…).
import type { CurrentUser, GetUserOptions, StackClientApp } from "@gatehouse/sdk";
import { useSyncExternalStore } from "react";
import { attachObjectHooks, type WithHooks } from "./object-hooks.ts";
import { type BindingStore, read } from "./store.ts";

/** What a component waits on while the page goes elsewhere. */
const never = new Promise<never>(() => {});

/** The signed-in user, with getUser's options; suspends until the session's user is first known. */
export function useUserOf(
  app: StackClientApp,
  store: BindingStore,
  options: GetUserOptions = {},
): WithHooks<CurrentUser> | null {
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
  if (user) return attachObjectHooks(user, store);
  if (or === "throw") throw new Error("User is not signed in but useUser was called with { or: 'throw' }.");
  if (or === "redirect") {
    // One redirect for the components asking at once; a component mounted later (back from sign-in through a
    // router, still signed out) redirects again. Meanwhile it stays suspended; a failed redirect is thrown.
    const redirect = source.pending("redirect", () => app.redirectToSignIn());
    if (redirect.outcome && "error" in redirect.outcome) throw redirect.outcome.error;
    throw redirect.promise.then(() => never);
  }
  if (or === "anonymous")
    return attachObjectHooks(read(source.pending("anonymous", () => app.getUser({ tokenStore, or }))), store);
  return null;
}
