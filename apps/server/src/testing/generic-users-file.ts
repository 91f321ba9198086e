// A generic-format import file of `count` users (docs/cli.md), written as a stream, for the 100,000-user import test
// and `npm run bench:import`: never held in memory, whatever the count.
import { createWriteStream } from "node:fs";

/** A bcrypt digest (cost 4) every generated user shares: an import stores hashes, it never computes them. */
export const SHARED_BCRYPT_HASH = "$2a$04$0p9ACqPOBpLpOdzMBf0Cj.2ARuaT3C.trSAvJfUlz3NMCSDuK/a3e";

/** Users `user_0` … with addresses `user<i>@<domain>`, every other one verified. */
export async function writeGenericUsers(file: string, count: number, domain: string): Promise<void> {
  const out = createWriteStream(file);
  for (let i = 0; i < count; i++) {
    const line = `${JSON.stringify({
      id: `user_${i}`,
      email: `user${i}@${domain}`,
      email_verified: i % 2 === 0,
      display_name: `User ${i}`,
      password_hash: SHARED_BCRYPT_HASH,
    })}\n`;
    if (!out.write(line)) await new Promise<void>((r) => out.once("drain", () => r()));
  }
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
}
