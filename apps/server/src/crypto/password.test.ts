// Password hashing takes turns: at most one argon2id computation per slot (a CPU in the server) at a time, the rest
// queued in order, so a burst of sign-ins holds a hash's memory per core, not per libuv thread. Each still verifies.
import { describe, expect, it } from "vitest";
import { createPasswordHasher } from "./password.ts";

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
});
