// Password hashing takes turns: at most one argon2id computation per slot (a CPU in the server) at a time, the rest
// queued in order, so a burst of sign-ins holds a hash's memory per core, not per libuv thread. Each still verifies.
import { describe, expect, it } from "vitest";
import { createPasswordHasher, hashSlots } from "./password.ts";

describe("createPasswordHasher", () => {
  it("runs as many hashes at once as it has slots; the others wait, and all finish right", async () => {
    const hasher = createPasswordHasher(2);
    const hashing = Array.from({ length: 6 }, (_, i) => hasher.hash(`password number ${i}`));
    expect(hasher.load()).toEqual({ running: 2, waiting: 4 });
    const stored = await Promise.all(hashing);
    expect(hasher.load()).toEqual({ running: 0, waiting: 0 });

    const checks = stored.map((hash, i) => hasher.verify(hash, `password number ${i}`));
    const wrong = hasher.verify(stored[0] as string, "not the password");
    const burnt = hasher.burn("anything at all");
    expect(hasher.load().running).toBe(2);
    expect(await Promise.all(checks)).toEqual([true, true, true, true, true, true]);
    expect(await wrong).toBe(false);
    await burnt;
  });

  it("leaves one of libuv's threads free of hashes, for the access tokens' signatures", () => {
    expect(hashSlots(2, 4)).toBe(2);
    expect(hashSlots(8, 4)).toBe(3);
    expect(hashSlots(16, 12)).toBe(11);
    expect(hashSlots(4, 1)).toBe(1);
  });
});
