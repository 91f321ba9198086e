// What the React bindings keep per app, outside React (one store per <StackProvider>): a stable snapshot of the
// signed-in user for useSyncExternalStore, and the reads hooks suspend on (the project; each user's teams,
// permissions and contact channels), shared so that every component asking for the same thing shares one request.
import type { CurrentUser, Project, StackClientApp, TokenStoreInit } from "@gatehouse/sdk";

/** A promise whose outcome a render can read synchronously; `subscribe` hears when it settles. */
export type Tracked<T> = {
  promise: Promise<T>;
  outcome: { value: T } | { error: unknown } | undefined;
  subscribe(listener: () => void): () => void;
};

export function track<T>(promise: Promise<T>): Tracked<T> {
  const listeners = new Set<() => void>();
  const tracked: Tracked<T> = {
    promise,
    outcome: undefined,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const settle = (outcome: Tracked<T>["outcome"]) => {
    tracked.outcome = outcome;
    for (const listener of [...listeners]) listener();
  };
  promise.then(
    (value) => settle({ value }),
    (error: unknown) => settle({ error }),
  );
  return tracked;
}

/**
 * The value of a tracked promise: suspends while it is pending (by throwing it: unlike `use`, a component may stop
 * asking once it has the value, as useUser does after the first read), throws what it failed with.
 */
export function read<T>(tracked: Tracked<T>): T {
  const outcome = tracked.outcome;
  if (!outcome) throw tracked.promise;
  if ("error" in outcome) throw outcome.error;
  return outcome.value;
}

/** An outcome known from the start (what a signed-out user's teams are). */
export function settled<T>(value: T): Tracked<T> {
  return { promise: Promise.resolve(value), outcome: { value }, subscribe: () => () => {} };
}

/** The signed-in user of one token store, as React reads it. */
export type UserSource = {
  subscribe(listener: () => void): () => void;
  /**
   * The user as last read: the same object until the SDK's cache holds another one. While a write's re-read is under
   * way the previous user stays, so only the very first read (undefined) has nothing to show.
   */
  getSnapshot(): CurrentUser | null | undefined;
  /**
   * A read or action hooks suspend on (the first read, an anonymous sign-up, a redirect), shared by every component
   * until it succeeds; a failure is kept, so it reaches an error boundary instead of being retried in a loop, until
   * the user changes.
   */
  pending<T>(name: string, start: () => Promise<T>): Tracked<T>;
};

function userSource(app: StackClientApp, tokenStore: TokenStoreInit | undefined): UserSource {
  let last: CurrentUser | null | undefined;
  let subscribers = 0;
  const pending = new Map<string, Tracked<unknown>>();
  return {
    subscribe(listener) {
      subscribers++;
      const unsubscribe = app.onUserChange(listener, tokenStore);
      return () => {
        unsubscribe();
        // The store lives as long as the app (store.ts keeps one per app): with nobody showing the user, the last one
        // must not stand in for whoever the next mount finds (a sign-out in between would show the old user).
        if (--subscribers === 0) last = undefined;
      };
    },
    getSnapshot() {
      const peeked = app.peekUser(tokenStore);
      if (peeked === undefined) return last;
      // The SDK answers the same object until the user is read again.
      const next = peeked;
      if (next !== last) {
        last = next;
        pending.clear();
      }
      return next;
    },
    pending<T>(name: string, start: () => Promise<T>) {
      let entry = pending.get(name) as Tracked<T> | undefined;
      if (!entry) {
        const started = track(start());
        started.promise.then(
          () => pending.get(name) === started && pending.delete(name),
          () => {},
        );
        pending.set(name, started);
        entry = started;
      }
      return entry;
    },
  };
}

export type BindingStore = ReturnType<typeof createBindingStore>;

// One store per app, found from the app itself: Stack's object hooks (`app.useUser()`) have no provider argument, so
// the provider and the app's own hooks must reach the same store. Keyed weakly, it goes when the app does.
const stores = new WeakMap<StackClientApp, BindingStore>();

export function bindingStoreOf(app: StackClientApp): BindingStore {
  let store = stores.get(app);
  if (!store) {
    store = createBindingStore(app);
    stores.set(app, store);
  }
  return store;
}

export function createBindingStore(app: StackClientApp) {
  const sources = new Map<TokenStoreInit | undefined, UserSource>();
  let project: Tracked<Project> | undefined;
  // Reads through an object (a user, a team): kept with that object, so a write (which gives a new user object) reads
  // them again.
  const ownedReads = new WeakMap<object, Map<string, Tracked<unknown>>>();
  // The newest value of each read, which stands in for the same user while a newer user object's read loads: a
  // write refreshes what is shown without a Suspense fallback. `order` keeps a late answer from an older read out.
  const latest = new Map<string, { order: number; value: unknown }>();
  let reads = 0;

  return {
    userSource(tokenStore: TokenStoreInit | undefined): UserSource {
      let source = sources.get(tokenStore);
      if (!source) {
        source = userSource(app, tokenStore);
        sources.set(tokenStore, source);
      }
      return source;
    },

    project(): Tracked<Project> {
      project ??= track(app.getProject());
      return project;
    },

    /**
     * The read `name` of `owner` (a user, team or app generation object: one request per owner object), and the
     * newest value the same read had for the same `identity` (say the user's id) through an earlier owner object,
     * if any, to show until the new one arrives.
     */
    ownedRead<T>(
      owner: object,
      identity: string,
      name: string,
      load: () => Promise<T>,
    ): { current: Tracked<T>; stale: { value: T } | undefined } {
      let ofOwner = ownedReads.get(owner);
      if (!ofOwner) {
        ofOwner = new Map();
        ownedReads.set(owner, ofOwner);
      }
      const latestKey = `${identity}\u0000${name}`;
      let current = ofOwner.get(name) as Tracked<T> | undefined;
      if (!current) {
        const order = ++reads;
        current = track(load());
        current.promise.then(
          (value) => {
            const known = latest.get(latestKey);
            if (!known || known.order < order) latest.set(latestKey, { order, value });
          },
          () => {},
        );
        ofOwner.set(name, current);
      }
      const known = latest.get(latestKey);
      return { current, stale: known ? { value: known.value as T } : undefined };
    },
  };
}
