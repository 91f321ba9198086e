// [GO] The project's RS256 keys for its OpenID Provider: the first made on first use, sealed with the server secret,
// published in the provider's JWKS beside the ES256 keys. Only clients registered with id_token_signed_response_alg
// RS256 get id_tokens signed with them (some relying parties verify nothing else). They rotate with the ES256 keys
// (`gatehouse signing-keys rotate`): a new key is published an hour before it signs, as those are, and a key leaves
// once it has been superseded for longer than an id_token lives.
import { generateKeyPair, randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { desc, eq, inArray } from "drizzle-orm";
import type { Clock } from "../clock.ts";
import type { SecretBox } from "../crypto/secret-box.ts";
import type { Db } from "../db/client.ts";
import { oidcRsaKeys } from "../db/schema.ts";
import { JWKS_CACHE_MS } from "../services/signing-keys.ts";

const generate = promisify(generateKeyPair);

/** How long an id_token lives (the provider's IdToken ttl): a key superseded for longer signed none still valid. */
export const ID_TOKEN_TTL_S = 3600;

type RsaKeyRow = typeof oidcRsaKeys.$inferSelect;

const newestFirst = (db: Db, projectId: string) =>
  db
    .select()
    .from(oidcRsaKeys)
    .where(eq(oidcRsaKeys.projectId, projectId))
    .orderBy(desc(oidcRsaKeys.signsFrom));

async function newKeyRow(
  box: SecretBox,
  clock: Clock,
  projectId: string,
  signsFrom: Date,
): Promise<RsaKeyRow> {
  const { privateKey } = await generate("rsa", { modulusLength: 2048 });
  return {
    kid: `rsa-${randomUUID()}`,
    projectId,
    sealedPrivateJwk: box.seal(JSON.stringify(privateKey.export({ format: "jwk" }))),
    createdAt: clock.now(),
    signsFrom,
  };
}

/**
 * The project's RS256 keys as the provider's keystore wants them: the one signing now first (oidc-provider signs with
 * the first key of an algorithm), then the others still published (the next one, the ones it superseded).
 */
export async function rsaPrivateJwks(
  db: Db,
  box: SecretBox,
  clock: Clock,
  projectId: string,
): Promise<Record<string, unknown>[]> {
  let rows = await newestFirst(db, projectId);
  if (rows.length === 0) {
    // The first key signs from the epoch: two processes making one at once collide on (project, signs_from), the
    // first insert wins and both use its key.
    await db
      .insert(oidcRsaKeys)
      .values(await newKeyRow(box, clock, projectId, new Date(0)))
      .onConflictDoNothing();
    rows = await newestFirst(db, projectId);
    if (rows.length === 0) throw new Error("the RSA key was neither inserted nor found");
  }
  const now = clock.now().getTime();
  const signing = rows.find((row) => row.signsFrom.getTime() <= now) ?? rows[rows.length - 1];
  return [signing, ...rows.filter((row) => row !== signing)].map((row) => ({
    ...JSON.parse(box.open((row as RsaKeyRow).sealedPrivateJwk)),
    kid: (row as RsaKeyRow).kid,
    alg: "RS256",
    use: "sig",
  }));
}

/**
 * In a rotation's transaction: publishes a new RS256 key that signs after the JWKS cache time, and removes the keys
 * superseded for longer than an id_token lives. A project whose provider never made a key gets none (its first use
 * makes a fresh one).
 */
export async function rotateRsaKeys(
  tx: Db,
  box: SecretBox,
  clock: Clock,
  projectId: string,
): Promise<{ published: string[]; retired: string[] }> {
  const rows = await newestFirst(tx, projectId);
  if (rows.length === 0) return { published: [], retired: [] };
  const now = clock.now().getTime();
  const retired = rows
    .filter((_row, index) => {
      // Newest first: the key after it in signing order is the one before it in the list.
      const successor = rows[index - 1];
      return successor !== undefined && successor.signsFrom.getTime() + ID_TOKEN_TTL_S * 1000 <= now;
    })
    .map((row) => row.kid);
  if (retired.length > 0) await tx.delete(oidcRsaKeys).where(inArray(oidcRsaKeys.kid, retired));
  const row = await newKeyRow(box, clock, projectId, new Date(now + JWKS_CACHE_MS));
  await tx.insert(oidcRsaKeys).values(row);
  return { published: [row.kid], retired };
}
