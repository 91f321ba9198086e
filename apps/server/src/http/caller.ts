// Who is calling (WIRE.md §1.3 steps 1-9): access type, project, project keys, and the user of the access token.
// Each failure is one known error, raised in the order the wire prescribes.
import { ACCESS_TYPES, type AccessType, KnownErrors, type RequestHeaderSuffix } from "@gatehouse/contract";
import type { JWTPayload } from "jose";
import type { AuditActor } from "../audit/scope.ts";
import { sha256Hex } from "../crypto/hash.ts";
import type { ApiKeyKind } from "../crypto/random.ts";
import { KEY_HASH_COLUMNS } from "../db/api-keys-repo.ts";
import type { RequestLookup } from "../db/request-repo.ts";
import type { AudienceKind } from "../db/schema.ts";
import type { UserRecord } from "../db/users-repo.ts";
import type { Deps } from "../deps.ts";
import type { Project } from "../services/projects.ts";
import { tokenIssuerAndAudience } from "../services/sessions.ts";
import { TokenNotVerifiable } from "../services/signing-keys.ts";
import type { HeaderReader } from "./headers.ts";

export type TokenUser = {
  id: string;
  sessionId: string;
  isAnonymous: boolean;
  isRestricted: boolean;
  /** The user as stored, loaded with the session check (step 5d and 9 in one query). */
  record: UserRecord;
};

export type Caller =
  | { accessType: null; project: null; user: null; operatorId?: undefined }
  | {
      accessType: AccessType;
      project: Project;
      user: TokenUser | null;
      /** Admin access through an operator's admin access token: their user id in the internal project. */
      operatorId?: string;
      /** The key set of the project key that was checked, when one was. */
      keySetId?: string;
    };

export const UNAUTHENTICATED: Caller = { accessType: null, project: null, user: null };

type VerifiedToken = { payload: JWTPayload; projectId: string; audience: AudienceKind };

/** Signature, key, issuer and audience; undefined when any of them is wrong (expiry is checked by the caller). */
async function verifyToken(deps: Deps, token: string): Promise<VerifiedToken | undefined> {
  try {
    const verified = await deps.signingKeys.verify(token);
    const expected = tokenIssuerAndAudience(deps.baseUrl, verified.projectId, verified.audience);
    const { payload } = verified;
    if (payload.iss !== expected.iss || payload.aud !== expected.aud || typeof payload.sub !== "string")
      return;
    return verified;
  } catch (error) {
    if (error instanceof TokenNotVerifiable) return;
    throw error;
  }
}

const expiredAt = (payload: JWTPayload) => (typeof payload.exp === "number" ? payload.exp * 1000 : undefined);
const isExpired = (deps: Deps, payload: JWTPayload) =>
  (expiredAt(payload) ?? 0) <= deps.clock.now().getTime();

type TokenClaims = {
  userId: string;
  sessionId: string;
  audience: AudienceKind;
  expiry: { expired_at_millis?: number; project_id: string; user_id: string; refresh_token_id: string };
};

/** Steps 5a-5c: what can be checked from the token alone, before the database is asked. */
async function readTokenClaims(deps: Deps, token: string, projectId: string): Promise<TokenClaims> {
  const verified = await verifyToken(deps, token);
  if (!verified) throw KnownErrors.UNPARSABLE_ACCESS_TOKEN();
  const { payload } = verified;
  const userId = String(payload.sub);
  const sessionId = String(payload.refresh_token_id);
  const expiry = {
    expired_at_millis: expiredAt(payload),
    project_id: verified.projectId,
    user_id: userId,
    refresh_token_id: sessionId,
  };
  if (isExpired(deps, payload)) throw KnownErrors.ACCESS_TOKEN_EXPIRED(expiry);
  if (verified.projectId !== projectId) {
    throw KnownErrors.INVALID_PROJECT_FOR_ACCESS_TOKEN({
      expected_project_id: projectId,
      actual_project_id: verified.projectId,
    });
  }
  return { userId, sessionId, audience: verified.audience, expiry };
}

/** Steps 5d-5f: the token's session must still be live, and anonymous or restricted users must be allowed. */
function liveUser(
  deps: Deps,
  headers: HeaderReader,
  claims: TokenClaims,
  session: RequestLookup["session"],
): TokenUser {
  // [GF] A signed-out session's tokens stop working at once here, not only when they expire.
  if (!session || session.expiresAt <= deps.clock.now() || session.user.id !== claims.userId) {
    throw KnownErrors.ACCESS_TOKEN_EXPIRED(claims.expiry);
  }
  const user: TokenUser = {
    id: claims.userId,
    sessionId: claims.sessionId,
    isAnonymous: claims.audience === "anonymous",
    isRestricted: claims.audience !== "default",
    record: session.user,
  };
  const allowAnonymous = headers.flag("allow-anonymous-user");
  if (user.isAnonymous && !allowAnonymous) throw KnownErrors.ANONYMOUS_AUTHENTICATION_NOT_ALLOWED();
  if (user.isRestricted && !user.isAnonymous && !allowAnonymous && !headers.flag("allow-restricted-user")) {
    throw KnownErrors.RESTRICTED_USER_NOT_ALLOWED({
      restricted_reason: { type: "restricted_by_administrator" },
    });
  }
  return user;
}

/**
 * Admin access tokens (WIRE.md §8): a live token of an internal-project user, neither anonymous nor restricted,
 * who belongs to the team that owns the target project.
 */
async function checkAdminAccessToken(deps: Deps, token: string, project: Project): Promise<string> {
  const verified = await verifyToken(deps, token);
  if (!verified) throw KnownErrors.UNPARSABLE_ADMIN_ACCESS_TOKEN();
  const expired = () =>
    KnownErrors.ADMIN_ACCESS_TOKEN_EXPIRED({ expired_at_millis: expiredAt(verified.payload) });
  if (isExpired(deps, verified.payload)) throw expired();
  const live = await deps.usersRepo.findBySession(
    verified.projectId,
    String(verified.payload.refresh_token_id),
  );
  if (!live || live.sessionExpiresAt <= deps.clock.now()) throw expired();
  if (verified.projectId !== "internal") throw KnownErrors.INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN();
  const { user } = live;
  const owner = project.ownerTeamId;
  const isOwner =
    owner !== null &&
    !user.isAnonymous &&
    !user.restrictedByAdmin &&
    (await deps.teamsRepo.findMember(owner, user.id)) !== undefined;
  if (!isOwner) throw KnownErrors.ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN();
  return user.id;
}

const KEY_HEADERS: Record<AccessType, { header: RequestHeaderSuffix; kind: ApiKeyKind }> = {
  client: { header: "publishable-client-key", kind: "pck" },
  server: { header: "secret-server-key", kind: "ssk" },
  admin: { header: "super-secret-admin-key", kind: "sak" },
};

/** The project key presented for this access type; a key for another access type is ignored (WIRE.md §1.3). */
function presentedKey(headers: HeaderReader, type: AccessType) {
  // An admin access token, when present, is used and the admin key ignored.
  if (type === "admin" && headers.get("admin-access-token")) return undefined;
  const { header, kind } = KEY_HEADERS[type];
  const value = headers.get(header);
  return value ? { kind, value } : undefined;
}

/**
 * Step 7: the key (or admin token) that the access type needs; `keyValid` was looked up with the project. Answers the
 * operator's user id when an admin access token was used.
 */
async function checkCredentials(
  deps: Deps,
  headers: HeaderReader,
  type: AccessType,
  project: Project,
  keyValid: boolean | undefined,
): Promise<string | undefined> {
  const project_id = project.id;
  if (type === "client") {
    if (keyValid === undefined && project.config.require_publishable_client_key) {
      throw KnownErrors.PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT({ project_id });
    }
    if (keyValid === false) throw KnownErrors.INVALID_PUBLISHABLE_CLIENT_KEY({ project_id });
  } else if (type === "server") {
    if (keyValid === undefined) throw KnownErrors.SERVER_AUTHENTICATION_REQUIRED();
    if (!keyValid) throw KnownErrors.INVALID_SECRET_SERVER_KEY({ project_id });
  } else {
    const adminToken = headers.get("admin-access-token");
    if (adminToken) return checkAdminAccessToken(deps, adminToken, project);
    if (keyValid === undefined) throw KnownErrors.ADMIN_AUTHENTICATION_REQUIRED();
    if (!keyValid) throw KnownErrors.INVALID_SUPER_SECRET_ADMIN_KEY({ project_id });
  }
}

const CREDENTIAL_HEADERS: RequestHeaderSuffix[] = [
  "publishable-client-key",
  "secret-server-key",
  "super-secret-admin-key",
  "admin-access-token",
];

export async function resolveCaller(deps: Deps, headers: HeaderReader): Promise<Caller> {
  const accessType = headers.get("access-type");
  if (accessType === undefined) {
    if (CREDENTIAL_HEADERS.some((suffix) => headers.get(suffix) !== undefined)) {
      throw KnownErrors.PROJECT_KEY_WITHOUT_ACCESS_TYPE();
    }
    return UNAUTHENTICATED;
  }
  if (!(ACCESS_TYPES as readonly string[]).includes(accessType))
    throw KnownErrors.INVALID_ACCESS_TYPE({ accessType });
  const type = accessType as AccessType;
  const projectId = headers.get("project-id");
  if (!projectId) throw KnownErrors.ACCESS_TYPE_WITHOUT_PROJECT_ID({ request_type: type });
  const key = presentedKey(headers, type);
  const token = headers.get("access-token");
  const claims = token ? await readTokenClaims(deps, token, projectId) : undefined;
  // Project, key validity and the token's session user come back from one query; failures are then reported in
  // the wire's order: the token (step 5) before the project (6) and the key (7).
  const found = await deps.requestRepo.lookup({
    projectId,
    key: key && { column: KEY_HASH_COLUMNS[key.kind], hash: sha256Hex(key.value) },
    sessionId: claims?.sessionId,
    now: deps.clock.now(),
  });
  const user = claims ? liveUser(deps, headers, claims, found?.session) : null;
  if (!found) throw KnownErrors.CURRENT_PROJECT_NOT_FOUND({ project_id: projectId });
  const { project } = found;
  const operatorId = await checkCredentials(deps, headers, type, project, found.keyValid);
  const branchId = headers.get("branch-id");
  if (branchId !== undefined && branchId !== "main")
    throw KnownErrors.BRANCH_DOES_NOT_EXIST({ branch_id: branchId });
  if (operatorId) return { accessType: type, project, user, operatorId };
  return found.keySetId
    ? { accessType: type, project, user, keySetId: found.keySetId }
    : { accessType: type, project, user };
}

/** The actor a resolved caller stands for; an operator's admin token is named before the key it replaces. */
export function actorOf(caller: Caller): AuditActor {
  if (caller.accessType === null) return { type: "anonymous", id: null };
  if (caller.operatorId) return { type: "admin_token", id: caller.operatorId };
  if (caller.accessType === "admin") return { type: "admin_key", id: caller.keySetId ?? null };
  if (caller.accessType === "server") return { type: "server_key", id: caller.keySetId ?? null };
  if (caller.user) return { type: "user", id: caller.user.id };
  return { type: "anonymous", id: null };
}
