// Objects whose calls load on first use: a stub per call name that loads the real object once (the loaded module is
// a chunk of its own in a browser bundle) and hands the call on to it. Every stub answers a promise, so only calls
// that are async anyway are made lazy; a failed load is tried again on the next call.

// biome-ignore lint/suspicious/noExplicitAny: the stubs hand on whatever arguments their call takes.
type Call = (...args: any[]) => unknown;

/** The stubs of `names`, each calling the same-named call of what `load` answers. */
export function withLazyCalls<T extends Record<string, unknown>, K extends keyof T & string>(
  names: readonly K[],
  load: () => Promise<T>,
): Pick<T, K> {
  let loaded: Promise<T> | undefined;
  const target = () =>
    (loaded ??= load().catch((error) => {
      loaded = undefined;
      throw error;
    }));
  const stubs: Record<string, Call> = {};
  for (const name of names) stubs[name] = async (...args) => ((await target())[name] as Call)(...args);
  return stubs as Pick<T, K>;
}
