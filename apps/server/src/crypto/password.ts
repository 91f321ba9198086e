// Password hashing: argon2id (m=19456 KiB, t=2, p=1) as PHC strings, computed off the event loop by the native
// binding. Stored hashes of other kinds (imports, older parameters) verify with their own algorithm and are
// replaced after the next successful sign-in. A fixed dummy hash lets sign-in spend the same work when the e-mail
// is unknown.
//
// At most one hash per CPU runs at a time (p-limit); the rest wait their turn. libuv's pool would run four at once,
// which on a two-core machine buys no throughput (measured: 78 and 79 sign-ins/s) but holds twice the hashes'
// memory (19 MiB each: peak RSS under sign-in load 211-225 MiB, 188-190 MiB with one per core) and leaves the
// event loop and the database fewer cycles. One of libuv's threads is always left free of hashes: the access token's
// ES256 signature is made there too (crypto/es256.ts), and a refresh must not wait behind a queue of sign-ins.
import { availableParallelism } from "node:os";
import { hash, verify } from "@node-rs/argon2";
import pLimit from "p-limit";
import { verifyPasswordHash } from "./imported-hash.ts";

// `algorithm: 2` is Algorithm.Argon2id (a const enum, which isolated modules cannot import).
export const ARGON2_PARAMS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
const CURRENT_PREFIX = `$argon2id$v=19$m=${ARGON2_PARAMS.memoryCost},t=${ARGON2_PARAMS.timeCost},p=${ARGON2_PARAMS.parallelism}$`;

export type PasswordHasher = {
  hash(password: string): Promise<string>;
  /** False for a wrong password and for a stored hash it cannot read. Reads every kind `parsePasswordHash` accepts. */
  verify(stored: string, password: string): Promise<boolean>;
  /** True when the stored hash uses other parameters or another algorithm: rehash after a successful sign-in. */
  needsRehash(stored: string): boolean;
  /** Spends one verification's work on nothing, for paths where there is no hash to check. */
  burn(password: string): Promise<void>;
  /** Hashes running now and waiting their turn. */
  load(): { running: number; waiting: number };
};

/** Never throws: a stored hash that the library chokes on is a failed verification, not a 500. */
async function safely(check: Promise<boolean>): Promise<boolean> {
  try {
    return await check;
  } catch {
    return false;
  }
}

/** libuv's thread pool: four threads unless the operator sets UV_THREADPOOL_SIZE before the process starts. */
const THREAD_POOL_SIZE = Number(process.env.UV_THREADPOOL_SIZE) || 4;

/** Hashes at once: one per CPU, leaving one thread of the pool to signatures, file reads and DNS. */
export function hashSlots(cpus: number, poolSize: number): number {
  return Math.max(1, Math.min(cpus, poolSize - 1));
}

export function createPasswordHasher(
  slots = hashSlots(availableParallelism(), THREAD_POOL_SIZE),
): PasswordHasher {
  const inTurn = pLimit(slots);
  // Made once per process; what matters is that verifying against it costs what a real verification costs.
  let dummy: Promise<string> | undefined;
  return {
    hash: (password) => inTurn(() => hash(password, ARGON2_PARAMS)),
    verify: (stored, password) => inTurn(() => safely(verifyPasswordHash(stored, password))),
    needsRehash: (stored) => !stored.startsWith(CURRENT_PREFIX),
    async burn(password) {
      dummy ??= inTurn(() => hash("gatehouse-dummy-password", ARGON2_PARAMS));
      const stored = await dummy;
      await inTurn(() => safely(verify(stored, password)));
    },
    load: () => ({ running: inTurn.activeCount, waiting: inTurn.pendingCount }),
  };
}
