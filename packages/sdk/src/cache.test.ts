// The read cache: shared loads, kept values, invalidation, one load at a time per key with a 300 ms throttle (on an
// injected clock), the subscribe/getSnapshot interface, and failures that are not kept.
import { describe, expect, it } from "vitest";
import { createAsyncCache } from "./cache.ts";

/** A clock that only moves when the cache sleeps, and records the sleeps. */
function fakeClock() {
  const clock = {
    time: 1_000,
    sleeps: [] as number[],
    now: () => clock.time,
    sleep: async (ms: number) => {
      clock.sleeps.push(ms);
      clock.time += ms;
    },
  };
  return clock;
}

/** A loader whose calls wait until the test settles them; records each call's key and start time. */
function controlledLoader<K, T>(clock: { now(): number }) {
  const calls: { key: K; at: number; resolve(value: T): void; reject(error: unknown): void }[] = [];
  const load = (key: K) =>
    new Promise<T>((resolve, reject) => {
      calls.push({ key, at: clock.now(), resolve, reject });
    });
  return { calls, load };
}

/** Lets queued promise callbacks run. */
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function setup<K = string, T = string>() {
  const clock = fakeClock();
  const loader = controlledLoader<K, T>(clock);
  const cache = createAsyncCache<K, T>(loader.load, { now: clock.now, sleep: clock.sleep });
  return { clock, cache, calls: loader.calls };
}

describe("createAsyncCache", () => {
  it("shares one load between concurrent gets and keeps the value", async () => {
    const { cache, calls } = setup();
    const first = cache.get("k");
    const second = cache.get("k");
    await flush();
    expect(calls).toHaveLength(1);
    calls[0]!.resolve("v1");
    expect(await first).toBe("v1");
    expect(await second).toBe("v1");
    expect(await cache.get("k")).toBe("v1");
    expect(calls).toHaveLength(1);
    expect(calls[0]!.key).toBe("k");
  });

  it("keys by value, and tuples part by part", async () => {
    const clock = fakeClock();
    const session = { id: "s" };
    const loaded: unknown[] = [];
    const cache = createAsyncCache(
      async (key: readonly [object, number]) => {
        loaded.push(key);
        return key[1] * 10;
      },
      { now: clock.now, sleep: clock.sleep },
    );
    expect(await cache.get([session, 1])).toBe(10);
    expect(await cache.get([session, 1])).toBe(10);
    expect(await cache.get([session, 2])).toBe(20);
    expect(await cache.get([{ id: "s" }, 1])).toBe(10);
    expect(loaded).toHaveLength(3);
  });

  it("loads again after invalidate, only for the keys the predicate picks", async () => {
    const { cache, calls, clock } = setup();
    const a = cache.get("a");
    const b = cache.get("b");
    await flush();
    calls[0]!.resolve("a1");
    calls[1]!.resolve("b1");
    await Promise.all([a, b]);
    clock.time += 1_000;

    cache.invalidate((key) => key === "a");
    expect(cache.getSnapshot("a")).toBeUndefined();
    expect(cache.getSnapshot("b")).toBe("b1");
    const again = cache.get("a");
    await flush();
    expect(calls.map((c) => c.key)).toEqual(["a", "b", "a"]);
    calls[2]!.resolve("a2");
    expect(await again).toBe("a2");
    expect(await cache.get("b")).toBe("b1");

    cache.invalidate();
    expect([cache.getSnapshot("a"), cache.getSnapshot("b")]).toEqual([undefined, undefined]);
  });

  it("does not keep what a load started before an invalidate answers", async () => {
    const { cache, calls, clock } = setup();
    const stale = cache.get("k");
    await flush();
    cache.invalidate();
    const fresh = cache.get("k");
    calls[0]!.resolve("old");
    expect(await stale).toBe("old");
    expect(cache.getSnapshot("k")).toBeUndefined();
    await flush();
    expect(calls).toHaveLength(2);
    expect(clock.sleeps).toEqual([300]);
    expect(calls[1]!.at).toBe(1_300);
    calls[1]!.resolve("new");
    expect(await fresh).toBe("new");
    expect(cache.getSnapshot("k")).toBe("new");
  });

  it("waits 300 ms between the starts of two loads of a key, and not when enough time has passed", async () => {
    const { cache, calls, clock } = setup();
    const first = cache.get("k");
    await flush();
    calls[0]!.resolve("v1");
    await first;

    const second = cache.refresh("k");
    await flush();
    expect(clock.sleeps).toEqual([300]);
    expect(calls.map((c) => c.at)).toEqual([1_000, 1_300]);
    calls[1]!.resolve("v2");
    expect(await second).toBe("v2");

    clock.time += 5_000;
    const third = cache.refresh("k");
    await flush();
    expect(clock.sleeps).toEqual([300]);
    calls[2]!.resolve("v3");
    expect(await third).toBe("v3");
    expect(cache.getSnapshot("k")).toBe("v3");
  });

  it("runs one load of a key at a time; refreshes asked meanwhile join one next load", async () => {
    const { cache, calls, clock } = setup();
    const first = cache.get("k");
    await flush();
    const refreshes = [cache.refresh("k"), cache.refresh("k"), cache.refresh("k")];
    await flush();
    expect(calls).toHaveLength(1);

    clock.time += 1_000;
    calls[0]!.resolve("v1");
    expect(await first).toBe("v1");
    await flush();
    expect(calls).toHaveLength(2);
    expect(clock.sleeps).toEqual([]);
    // The old value stays visible while the refresh runs.
    expect(cache.getSnapshot("k")).toBe("v1");
    calls[1]!.resolve("v2");
    expect(await Promise.all(refreshes)).toEqual(["v2", "v2", "v2"]);
  });

  it("loads different keys independently", async () => {
    const { cache, calls } = setup();
    const a = cache.get("a");
    const b = cache.get("b");
    await flush();
    expect(calls.map((c) => c.key)).toEqual(["a", "b"]);
    calls[1]!.resolve("b1");
    calls[0]!.resolve("a1");
    expect(await Promise.all([a, b])).toEqual(["a1", "b1"]);
  });

  it("does not keep failures: every waiting get sees the error, the next get loads again", async () => {
    const { cache, calls } = setup();
    const first = cache.get("k");
    const second = cache.get("k");
    await flush();
    calls[0]!.reject(new Error("network down"));
    await expect(first).rejects.toThrow("network down");
    await expect(second).rejects.toThrow("network down");
    expect(cache.getSnapshot("k")).toBeUndefined();

    const retry = cache.get("k");
    await flush();
    expect(calls).toHaveLength(2);
    calls[1]!.resolve("v");
    expect(await retry).toBe("v");
  });

  it("a failed refresh keeps the previous value", async () => {
    const { cache, calls } = setup();
    const first = cache.get("k");
    await flush();
    calls[0]!.resolve("v1");
    await first;
    const refresh = cache.refresh("k");
    await flush();
    calls[1]!.reject(new Error("boom"));
    await expect(refresh).rejects.toThrow("boom");
    expect(cache.getSnapshot("k")).toBe("v1");
  });

  it("subscribe loads a missing value and notifies on every change until unsubscribed", async () => {
    const { cache, calls, clock } = setup();
    let notified = 0;
    const unsubscribe = cache.subscribe("k", () => notified++);
    expect(cache.getSnapshot("k")).toBeUndefined();
    await flush();
    expect(calls).toHaveLength(1);
    calls[0]!.resolve("v1");
    await flush();
    expect(notified).toBe(1);
    expect(cache.getSnapshot("k")).toBe("v1");

    clock.time += 1_000;
    cache.invalidate();
    expect(notified).toBe(2);
    await flush();
    expect(calls).toHaveLength(2);
    calls[1]!.resolve("v2");
    await flush();
    expect(notified).toBe(3);
    expect(cache.getSnapshot("k")).toBe("v2");

    cache.set("k", "v3");
    expect(notified).toBe(4);
    expect(await cache.get("k")).toBe("v3");

    unsubscribe();
    cache.set("k", "v4");
    cache.invalidate();
    await flush();
    expect(notified).toBe(4);
    expect(calls).toHaveLength(2);
  });

  it("subscribe does not load a value it already has; getSnapshot is stable between changes", async () => {
    const { cache, calls } = setup<string, { n: number }>();
    const first = cache.get("k");
    await flush();
    calls[0]!.resolve({ n: 1 });
    await first;
    cache.subscribe("k", () => {});
    await flush();
    expect(calls).toHaveLength(1);
    expect(cache.getSnapshot("k")).toBe(cache.getSnapshot("k"));
    expect(cache.getSnapshot("other")).toBeUndefined();
  });

  it("set wins over a load that was already running", async () => {
    const { cache, calls } = setup();
    const load = cache.get("k");
    await flush();
    cache.set("k", "written");
    calls[0]!.resolve("read before the write");
    await load;
    expect(cache.getSnapshot("k")).toBe("written");
    expect(await cache.get("k")).toBe("written");
  });
});
