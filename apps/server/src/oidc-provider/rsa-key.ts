// [GO] The project's RS256 key for its OpenID Provider: made on first use, sealed with the server secret, published in
// the provider's JWKS beside the ES256 keys. Only clients registered with id_token_signed_response_alg RS256 get
// id_tokens signed with it (some relying parties verify nothing else).
import { generateKeyPair, randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import type { Clock } from "../clock.ts";
import type { SecretBox } from "../crypto/secret-box.ts";
import type { Db } from "../db/client.ts";
import { oidcRsaKeys } from "../db/schema.ts";

const generate = promisify(generateKeyPair);

export async function rsaPrivateJwk(
  db: Db,
  box: SecretBox,
  clock: Clock,
  projectId: string,
): Promise<Record<string, unknown>> {
  const stored = async () =>
    (await db.select().from(oidcRsaKeys).where(eq(oidcRsaKeys.projectId, projectId)))[0];
  let row = await stored();
  if (!row) {
    const { privateKey } = await generate("rsa", { modulusLength: 2048 });
    const jwk = privateKey.export({ format: "jwk" });
    // Two processes may make one at once: the first insert wins and both use its key.
    await db
      .insert(oidcRsaKeys)
      .values({
        projectId,
        kid: `rsa-${randomUUID()}`,
        sealedPrivateJwk: box.seal(JSON.stringify(jwk)),
        createdAt: clock.now(),
      })
      .onConflictDoNothing();
    row = await stored();
    if (!row) throw new Error("the RSA key was neither inserted nor found");
  }
  return { ...JSON.parse(box.open(row.sealedPrivateJwk)), kid: row.kid, alg: "RS256", use: "sig" };
}
