// Time as a dependency, so expiry and rotation are testable without sleeping.

export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests move by hand. */
export function createFixedClock(start = new Date("2026-01-01T00:00:00Z")) {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance(ms: number) {
      current += ms;
    },
    set(date: Date) {
      current = date.getTime();
    },
  };
}
