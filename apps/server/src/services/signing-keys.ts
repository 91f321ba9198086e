// Per-project ES256 signing keys: creation, the published JWKS, signing with the current key, verifying by kid,
// and rotation without downtime (a new key is published an hour before it signs; old keys leave only once no
// unexpired token can carry them).

import type { KeyObject } from "node:crypto";
import type { PublicJwk } from "@gatehouse/contract";
import type { JWTPayload } from "jose";
import type { AuditLog } from "../audit/log.ts";
import type { Clock } from "../clock.ts";
import { peekHeader, privateKeyFromJwk, publicKeyFromJwk, signEs256, verifyEs256 } from "../crypto/es256.ts";
import type { SecretBox } from "../crypto/secret-box.ts";
import { generateSigningKey } from "../crypto/signing-key.ts";
import { announceChange, type ChangeFeed } from "../db/change-feed.ts";
import type { Db } from "../db/client.ts";
import { AUDIENCE_KINDS, type AudienceKind } from "../db/schema.ts";
import type { NewSigningKeyRow, SigningKeyRow, SigningKeysRepo } from "../db/signing-keys-repo.ts";

/** How long verifiers may cache the JWKS; a new key is published this long before it signs. */
export const JWKS_CACHE_MS = 60 * 60 * 1000;
const SIGNER_CACHE_MS = 60 * 1000;

type VerifyingKey = { row: SigningKeyRow; key: KeyObject };

export class TokenNotVerifiable extends Error {}

export type PublishedKey = {
  kid: string;
  audience: AudienceKind;
  state: "pending" | "current" | "previous";
  createdAt: Date;
  signsFrom: Date;
};

export type VerifiedToken = { payload: JWTPayload; projectId: string; audience: AudienceKind };
const VERIFIED_CACHE_SIZE = 10_000;

export function createSigningKeyService(deps: {
  repo: SigningKeysRepo;
  box: SecretBox;
  clock: Clock;
  accessTokenLifetimeMs: number;
  /** Rotations announced by other processes: their retired keys must stop verifying here too. */
  changes: ChangeFeed;
  /** A rotation is an admin action: it leaves a `signing_key.rotated` entry in the rotation's transaction. */
  audit: Pick<AuditLog, "record">;
}) {
  const { repo, box, clock, changes } = deps;
  // Key material never changes for a kid, so imported keys are cached for the life of the process.
  const verifying = new Map<string, VerifyingKey>();
  const signing = new Map<string, KeyObject>();
  // A client sends the same access token for its whole ten-minute life, and checking an ECDSA signature is the
  // costliest step of a request: remember recent verified tokens (oldest forgotten first). Expiry and the session
  // are still checked on every request by the caller.
  const verified = new Map<string, VerifiedToken & { kid: string }>();
  // A project's published keys, cached briefly for signing: a new key is published an hour before it may sign, so
  // a cache far shorter than that always knows the key it must switch to.
  const publishedCache = new Map<string, { rows: SigningKeyRow[]; loadedAt: number }>();

  // A rotation in any process (or, undefined, changes missed while the feed was down) drops what this process
  // cached of the project's keys: a key retired anywhere stops verifying everywhere within the notification's delay.
  const CHANGE = "signing-keys:";
  changes.subscribe((payload) => {
    if (payload !== undefined && !payload.startsWith(CHANGE)) return;
    const projectId = payload?.slice(CHANGE.length);
    const stale = (p: string) => projectId === undefined || p === projectId;
    for (const [kid, entry] of verifying) if (stale(entry.row.projectId)) verifying.delete(kid);
    for (const [token, entry] of verified) if (stale(entry.projectId)) verified.delete(token);
    for (const p of publishedCache.keys()) if (stale(p)) publishedCache.delete(p);
  });

  async function newKeyRows(projectId: string, signsFrom: Date): Promise<NewSigningKeyRow[]> {
    return Promise.all(
      AUDIENCE_KINDS.map(async (audience) => {
        const key = await generateSigningKey();
        return {
          id: key.kid,
          projectId,
          audience,
          publicJwk: key.publicJwk,
          sealedPrivateJwk: box.seal(key.privateJwk),
          createdAt: clock.now(),
          signsFrom,
        };
      }),
    );
  }

  async function currentSigner(
    projectId: string,
    audience: AudienceKind,
  ): Promise<SigningKeyRow | undefined> {
    const now = clock.now().getTime();
    let entry = publishedCache.get(projectId);
    if (!entry || now - entry.loadedAt > SIGNER_CACHE_MS || now < entry.loadedAt) {
      entry = { rows: await repo.published(projectId), loadedAt: now };
      publishedCache.set(projectId, entry);
    }
    return entry.rows
      .filter((row) => row.audience === audience && row.signsFrom.getTime() <= now)
      .sort((a, b) => b.signsFrom.getTime() - a.signsFrom.getTime())[0];
  }

  async function verifyingKey(kid: string): Promise<VerifyingKey | undefined> {
    // While changes are not heard, a cached key may have been retired elsewhere: read it again.
    const cached = changes.live() ? verifying.get(kid) : undefined;
    if (cached) return cached;
    const row = await repo.find(kid);
    if (!row) return undefined;
    const entry = { row, key: publicKeyFromJwk(row.publicJwk) };
    verifying.set(kid, entry);
    return entry;
  }

  return {
    /** The first keys of a new project, signing at once (nobody can hold a stale JWKS of a new project). */
    async createInitialKeys(tx: Db, projectId: string): Promise<void> {
      await repo.insert(tx, await newKeyRows(projectId, clock.now()));
    },

    async jwks(
      projectId: string,
      include: { restricted: boolean; anonymous: boolean },
    ): Promise<PublicJwk[]> {
      const wanted = (a: AudienceKind) =>
        a === "default" ||
        (a === "restricted" && include.restricted) ||
        (a === "anonymous" && include.anonymous);
      return (await repo.published(projectId))
        .filter((row) => wanted(row.audience))
        .map((row) => row.publicJwk);
    },

    /**
     * [GO] The project's published default-audience keys as private JWKs, the one signing now first: the OpenID
     * Provider (oidc-provider/) signs id_tokens with them, so relying parties verify against the project's JWKS.
     */
    async privateJwks(projectId: string): Promise<Array<Record<string, unknown>>> {
      const now = clock.now().getTime();
      const rows = (await repo.published(projectId))
        .filter((row) => row.audience === "default")
        .sort((a, b) => {
          const signing = (row: SigningKeyRow) => row.signsFrom.getTime() <= now;
          if (signing(a) !== signing(b)) return signing(a) ? -1 : 1;
          return b.signsFrom.getTime() - a.signsFrom.getTime();
        });
      return rows.map((row) => ({
        ...JSON.parse(box.open(row.sealedPrivateJwk)),
        kid: row.id,
        alg: "ES256",
        use: "sig",
      }));
    },

    async sign(projectId: string, audience: AudienceKind, payload: JWTPayload): Promise<string> {
      const current = await currentSigner(projectId, audience);
      if (!current) throw new Error(`Project ${projectId} has no ${audience} signing key`);
      let key = signing.get(current.id);
      if (!key) {
        key = privateKeyFromJwk(JSON.parse(box.open(current.sealedPrivateJwk)));
        signing.set(current.id, key);
      }
      return signEs256({ alg: "ES256", kid: current.id, typ: "JWT" }, payload, key);
    },

    /**
     * Checks the signature with the key named by `kid` and returns the claims with the key's project and
     * audience. Expiry is the caller's business (it is a different error). Throws TokenNotVerifiable.
     */
    async verify(token: string): Promise<VerifiedToken> {
      const known = changes.live() ? verified.get(token) : undefined;
      if (known) return known;
      const kid = peekHeader(token)?.kid;
      const key = typeof kid === "string" ? await verifyingKey(kid) : undefined;
      if (!key || key.row.retiredAt) throw new TokenNotVerifiable("Unknown signing key");
      const jws = verifyEs256(token, key.key);
      if (!jws) throw new TokenNotVerifiable("Bad signature, header or payload");
      const result = {
        payload: jws.payload as JWTPayload,
        projectId: key.row.projectId,
        audience: key.row.audience,
        kid: key.row.id,
      };
      // Keyed by the whole token: only the exact bytes whose signature was checked can hit the cache.
      if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value as string);
      verified.set(token, result);
      return result;
    },

    /**
     * [GO] The published keys with their state: `pending` (published, signing later), `current` (the newest of its
     * audience that signs) or `previous` (superseded, still verifying until retired). Oldest first.
     */
    async describe(projectId: string, executor?: Db): Promise<PublishedKey[]> {
      const now = clock.now().getTime();
      const published = await repo.published(projectId, executor);
      return published.map((row) => {
        const signs = row.signsFrom.getTime() <= now;
        const newerSigning = published.some(
          (k) => k.audience === row.audience && k.signsFrom > row.signsFrom && k.signsFrom.getTime() <= now,
        );
        return {
          kid: row.id,
          audience: row.audience,
          state: !signs ? "pending" : newerSigning ? "previous" : "current",
          createdAt: row.createdAt,
          signsFrom: row.signsFrom,
        };
      });
    },

    /**
     * Starts a rotation: publishes a new key per audience that signs after the JWKS cache time, and retires
     * keys superseded for longer than an access-token lifetime (no unexpired token can carry them).
     */
    async rotate(
      tx: Db,
      projectId: string,
      /** Other keys the same rotation changed (the OpenID Provider's RS256 keys), for the audit entry. */
      alongside: { published: string[]; retired: string[] } = { published: [], retired: [] },
    ): Promise<void> {
      const now = clock.now();
      const published = await repo.published(projectId, tx);
      const retired: string[] = [];
      for (const key of published) {
        const supersededAt = published
          .filter((k) => k.audience === key.audience && k.signsFrom > key.signsFrom)
          .map((k) => k.signsFrom.getTime())
          .sort((a, b) => a - b)[0];
        if (supersededAt !== undefined && supersededAt + deps.accessTokenLifetimeMs <= now.getTime()) {
          await repo.retire(tx, key.id, now);
          retired.push(key.id);
          verifying.delete(key.id);
          for (const [token, entry] of verified) if (entry.kid === key.id) verified.delete(token);
        }
      }
      const rows = await newKeyRows(projectId, new Date(now.getTime() + JWKS_CACHE_MS));
      await repo.insert(tx, rows);
      await deps.audit.record(tx, projectId, {
        type: "signing_key.rotated",
        target: { type: "project", id: projectId },
        details: {
          published: [...rows.map((row) => row.id), ...alongside.published],
          retired: [...retired, ...alongside.retired],
          signs_from_millis: rows[0]?.signsFrom.getTime(),
        },
      });
      publishedCache.delete(projectId);
      await announceChange(tx, `${CHANGE}${projectId}`);
    },
  };
}

export type SigningKeyService = ReturnType<typeof createSigningKeyService>;
