// The dashboard's reads: each keyed read is fetched once and shared by every screen that shows it; a write
// invalidates the keys it changed, and every screen showing them reads again in place (keeping the old answer on
// screen meanwhile), so an edit shows up everywhere without a reload. Figures that change by themselves (sign-ups,
// activity) are read again when shown after a while, and everything a while old when the operator comes back to the
// tab (a member who joined by single sign-on in another window meanwhile). Keys start with the project id.
import { type Tracked, track } from "@gatehouse/react/ui";
import { useSyncExternalStore } from "react";

type Entry = { current: Tracked<unknown>; stale?: unknown; load: () => Promise<unknown>; startedAt: number };

const entries = new Map<string, Entry>();
const listeners = new Set<() => void>();
let version = 0;

function changed() {
  version++;
  for (const listener of [...listeners]) listener();
}

function entryOf<T>(key: string, load: () => Promise<T>): Entry {
  let entry = entries.get(key);
  if (!entry) {
    entry = { current: track(load()), load, startedAt: Date.now() };
    entry.current.subscribe(changed);
    entries.set(key, entry);
  }
  return entry;
}

/**
 * The value of a read, suspending only the first time; after an invalidation the previous value stays on screen
 * until the new one arrives. Errors are thrown to the nearest error boundary.
 */
export function useQuery<T>(key: string, load: () => Promise<T>): T {
  useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => version,
    () => version,
  );
  const entry = entryOf(key, load);
  const outcome = entry.current.outcome;
  if (!outcome) {
    if (entry.stale !== undefined) return entry.stale as T;
    throw entry.current.promise;
  }
  if ("error" in outcome) throw outcome.error;
  return outcome.value as T;
}

/** Reads again every key starting with one of `prefixes` (those on screen at once, the others when next shown). */
export function invalidate(...prefixes: string[]): void {
  readAgain((key) => prefixes.some((prefix) => key.startsWith(prefix)));
}

/** Like `invalidate`, for the keys whose read started more than `ms` ago (a screen of figures, when shown again). */
export function invalidateOlderThan(ms: number, ...prefixes: string[]): void {
  const before = Date.now() - ms;
  readAgain((key, entry) => entry.startedAt < before && prefixes.some((prefix) => key.startsWith(prefix)));
}

/**
 * Reads again what was read more than `ms` ago whenever the page becomes visible again (the operator returns to the
 * tab); the old values stay on screen until the new ones arrive. Returns the function that stops it.
 */
export function readAgainOnReturn(ms = 30_000): () => void {
  const onVisible = () => {
    if (document.visibilityState === "visible") invalidateOlderThan(ms, "");
  };
  document.addEventListener("visibilitychange", onVisible);
  return () => document.removeEventListener("visibilitychange", onVisible);
}

function readAgain(matches: (key: string, entry: Entry) => boolean): void {
  let any = false;
  for (const [key, entry] of entries) {
    if (!matches(key, entry)) continue;
    const previous = entry.current.outcome;
    if (previous && "value" in previous) entry.stale = previous.value;
    entry.current = track(entry.load());
    entry.current.subscribe(changed);
    entry.startedAt = Date.now();
    any = true;
  }
  if (any) changed();
}
