// The unsubscribe link of marketing e-mail (Stack's `/emails/unsubscribe-link?code=`): a token signed with a key
// derived from the server secret, naming the project, the user and the category, valid 30 days like Stack's code.
import { createHmac } from "node:crypto";
import { KnownErrors } from "@gatehouse/contract";
import { constantTimeEqual } from "../crypto/hash.ts";

export const UNSUBSCRIBE_LINK_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

export type UnsubscribeClaims = { projectId: string; userId: string; categoryId: string };

/**
 * Signed rather than stored: every marketing e-mail carries one, and a row per e-mail would only record what the
 * signature already proves. Unsubscribing twice is harmless, so a token needs no single use.
 */
export function createUnsubscribeTokens(deps: { key: Buffer; now: () => number }) {
  const sign = (payload: string) => createHmac("sha256", deps.key).update(payload).digest("base64url");

  return {
    create(claims: UnsubscribeClaims): string {
      const payload = Buffer.from(
        JSON.stringify([
          claims.projectId,
          claims.userId,
          claims.categoryId,
          deps.now() + UNSUBSCRIBE_LINK_LIFETIME_MS,
        ]),
      ).toString("base64url");
      return `${payload}.${sign(payload)}`;
    },

    /** The claims of a genuine, unexpired token; otherwise the known error Stack answers for its code. */
    verify(token: string): UnsubscribeClaims {
      const [payload = "", signature = "", ...rest] = token.split(".");
      if (rest.length > 0 || !payload || !constantTimeEqual(signature, sign(payload))) {
        throw KnownErrors.VERIFICATION_CODE_NOT_FOUND();
      }
      const [projectId, userId, categoryId, expiresAt] = JSON.parse(
        Buffer.from(payload, "base64url").toString("utf8"),
      ) as [string, string, string, number];
      if (expiresAt < deps.now()) throw KnownErrors.VERIFICATION_CODE_EXPIRED();
      return { projectId, userId, categoryId };
    },
  };
}

export type UnsubscribeTokens = ReturnType<typeof createUnsubscribeTokens>;
