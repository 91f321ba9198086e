// The SDK's read cache, after Stack's AsyncCache, keyed by a value or a tuple (e.g. [session, teamId]): callers asking at
// once share one load, values are kept until refreshed or invalidated, and each key loads one at a time with at
// least 300 ms between the starts of its loads (PRODUCT.md §9), so a burst of refreshes cannot flood the server.
// `subscribe` + `getSnapshot` fit React's useSyncExternalStore.

export type CacheOptions = {
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  throttleMs?: number;
};

export type AsyncCache<K, T> = {
  /** The kept value, or the load already under way, or a new load. */
  get(key: K): Promise<T>;
  /** Loads again (after the running load and the throttle); the old value stays visible meanwhile. */
  refresh(key: K): Promise<T>;
  /** Replaces the value, e.g. with what a write answered. */
  set(key: K, value: T): void;
  /** Forgets the values of matching keys (all without a predicate); watched keys load again at once. */
  invalidate(predicate?: (key: K) => boolean): void;
  /** The kept value, or undefined while there is none. Stable between changes. */
  getSnapshot(key: K): T | undefined;
  /** Calls `listener` when the key's value changes, and starts loading it if it has none; answers the unsubscriber. */
  subscribe(key: K, listener: () => void): () => void;
};

type Entry<K, T> = {
  key: K;
  value: { data: T } | undefined;
  /** The load `get` shares: the newest one started or queued since the value was last forgotten. */
  current: Promise<T> | undefined;
  /** A load waiting for its turn; refreshes asked meanwhile join it. */
  queued: Promise<T> | undefined;
  /** Settles when the last scheduled load has finished: loads of a key run one after another. */
  tail: Promise<unknown>;
  lastStart: number;
  /** Bumped when the value is forgotten, so a load started before cannot bring the old state back. */
  generation: number;
  listeners: Set<() => void>;
};

/** Tuples are equal part by part, anything else by identity (sessions are objects). */
const sameKey = (a: unknown, b: unknown) =>
  Array.isArray(a) && Array.isArray(b)
    ? a.length === b.length && a.every((part, i) => Object.is(part, b[i]))
    : Object.is(a, b);

export function createAsyncCache<K, T>(
  load: (key: K) => Promise<T>,
  options: CacheOptions = {},
): AsyncCache<K, T> {
  const now = options.now ?? (() => Date.now());
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const throttleMs = options.throttleMs ?? 300;
  // Caches hold few keys, so a list is enough.
  const entries: Entry<K, T>[] = [];

  function entryFor(key: K): Entry<K, T> {
    let entry = entries.find((e) => sameKey(e.key, key));
    if (!entry) {
      entry = {
        key,
        value: undefined,
        current: undefined,
        queued: undefined,
        tail: Promise.resolve(),
        lastStart: Number.NEGATIVE_INFINITY,
        generation: 0,
        listeners: new Set(),
      };
      entries.push(entry);
    }
    return entry;
  }

  function store(entry: Entry<K, T>, value: { data: T } | undefined) {
    entry.value = value;
    for (const listener of [...entry.listeners]) listener();
  }

  /** Sets or forgets the value outright: loads already started or queued no longer count. */
  function replace(entry: Entry<K, T>, value: { data: T } | undefined) {
    entry.generation++;
    entry.current = undefined;
    entry.queued = undefined;
    store(entry, value);
  }

  /** Queues a load behind the key's running one; its result is kept unless the value was forgotten meanwhile. */
  function schedule(entry: Entry<K, T>): Promise<T> {
    const generation = entry.generation;
    const previous = entry.tail;
    const run = async (): Promise<T> => {
      await previous;
      const wait = entry.lastStart + throttleMs - now();
      if (wait > 0) await sleep(wait);
      if (entry.queued === promise) entry.queued = undefined;
      entry.lastStart = now();
      try {
        const data = await load(entry.key);
        if (entry.generation === generation) store(entry, { data });
        return data;
      } finally {
        // Errors are not kept: the next `get` loads again.
        if (entry.current === promise) entry.current = undefined;
      }
    };
    const promise = run();
    entry.queued = promise;
    entry.current = promise;
    entry.tail = promise.catch(() => undefined);
    return promise;
  }

  /** Loads for a watcher, who hears the outcome through its listener; a failure is the next reader's to see. */
  function loadInBackground(entry: Entry<K, T>) {
    (entry.current ?? schedule(entry)).catch(() => undefined);
  }

  return {
    get(key) {
      const entry = entryFor(key);
      if (entry.value) return Promise.resolve(entry.value.data);
      return entry.current ?? schedule(entry);
    },
    refresh(key) {
      const entry = entryFor(key);
      return entry.queued ?? schedule(entry);
    },
    set(key, value) {
      replace(entryFor(key), { data: value });
    },
    invalidate(predicate = () => true) {
      for (const entry of entries.filter((e) => predicate(e.key))) {
        replace(entry, undefined);
        if (entry.listeners.size > 0) loadInBackground(entry);
      }
    },
    getSnapshot(key) {
      return entries.find((e) => sameKey(e.key, key))?.value?.data;
    },
    subscribe(key, listener) {
      const entry = entryFor(key);
      entry.listeners.add(listener);
      if (!entry.value) loadInBackground(entry);
      return () => {
        entry.listeners.delete(listener);
      };
    },
  };
}
