// User and team API keys (Stack's `/user-api-keys`, `/team-api-keys`): keys an app's users and teams hold to call
// the app's own back end, which checks them with `POST …/check`. The full key is shown once, on create.
import { z } from "zod";
import { defineRoute, type RouteDefinition } from "../route.ts";
import { listOf, userIdOrMe } from "../schemas/common.ts";

export type OwnedApiKeyType = "user" | "team";

/** JavaScript dates reach ±8.64e15 ms; beyond that a timestamp means nothing. */
const millisSchema = z.number().int().min(0).max(8.64e15);

const baseFields = {
  id: z.uuid(),
  description: z.string(),
  /** Absent for keys that never expire. */
  expires_at_millis: z.number().optional(),
  /** Present once the key was revoked. */
  manually_revoked_at_millis: z.number().optional(),
  created_at_millis: z.number(),
  is_public: z.boolean(),
};

const ownerFields = {
  user: { type: z.literal("user"), user_id: z.string() },
  team: { type: z.literal("team"), team_id: z.string() },
} as const;

const readSchema = <T extends OwnedApiKeyType>(type: T) =>
  z
    .object({ ...baseFields, ...ownerFields[type], value: z.object({ last_four: z.string() }) })
    .meta({ id: type === "user" ? "UserApiKey" : "TeamApiKey" });

const firstViewSchema = <T extends OwnedApiKeyType>(type: T) =>
  z
    .object({ ...baseFields, ...ownerFields[type], value: z.string() })
    .meta({ id: type === "user" ? "UserApiKeyFirstView" : "TeamApiKeyFirstView" });

export const userApiKeySchema = readSchema("user");
export const teamApiKeySchema = readSchema("team");
export const userApiKeyFirstViewSchema = firstViewSchema("user");
export const teamApiKeyFirstViewSchema = firstViewSchema("team");

/** One schema object per shape, so the OpenAPI document names each once. */
const schemas = {
  user: { read: userApiKeySchema, firstView: userApiKeyFirstViewSchema },
  team: { read: teamApiKeySchema, firstView: teamApiKeyFirstViewSchema },
} as const;

export type UserApiKeyJson = z.output<typeof userApiKeySchema>;
export type TeamApiKeyJson = z.output<typeof teamApiKeySchema>;
export type OwnedApiKeyJson = UserApiKeyJson | TeamApiKeyJson;
export type OwnedApiKeyFirstViewJson =
  | z.output<typeof userApiKeyFirstViewSchema>
  | z.output<typeof teamApiKeyFirstViewSchema>;

/** The owner as each path names it: a user (`me` for the caller's own) or a team. */
const ownerId = { user: { user_id: userIdOrMe }, team: { team_id: z.uuid() } } as const;

const createBody = (type: OwnedApiKeyType) =>
  z.strictObject({
    ...ownerId[type],
    description: z.string().max(4096),
    /** `null` (Stack's SDK sends it for `expiresAt: null`): the key never expires. */
    expires_at_millis: millisSchema.nullable().optional(),
    /** Public keys are not meant to be secret (secret scanners leave them alone). */
    is_public: z.boolean().optional(),
  });

/** Revocation is permanent: `revoked` can only be set. `expires_at_millis` is what Stack's server SDK sends. */
const updateBody = z
  .strictObject({
    description: z.string().max(4096).optional(),
    revoked: z.literal(true).optional(),
    expires_at_millis: millisSchema.nullable().optional(),
  })
  .default({});

const params = z.strictObject({ api_key_id: z.uuid() });

/** Reads and updates name the key by id; the owner sent beside it (Stack's SDKs send it) is not needed. */
const byIdQuery = {
  user: { user_id: userIdOrMe.optional() },
  team: { team_id: z.uuid().optional() },
} as const;

const CALLERS = ["client", "server", "admin"] as const;

function ownedApiKeyRoutes<T extends OwnedApiKeyType>(type: T) {
  const base = `/api/v1/${type}-api-keys`;
  const tag = "API keys";
  const { read, firstView } = schemas[type];
  return [
    defineRoute({
      method: "GET",
      path: base,
      access: CALLERS,
      summary: `Lists the ${type}'s API keys, newest first (clients: their own, or a team's with $manage_api_keys)`,
      tag,
      query: z.strictObject(ownerId[type]),
      response: { status: 200, kind: "json", schema: listOf(read) },
    }),
    defineRoute({
      method: "POST",
      path: base,
      access: CALLERS,
      summary: `Creates a ${type} API key; the answer holds the full key, shown only this once`,
      tag,
      body: createBody(type),
      response: { status: 200, kind: "json", schema: firstView },
    }),
    defineRoute({
      method: "POST",
      path: `${base}/check`,
      access: ["server", "admin"],
      summary: `Checks a ${type} API key: its record if valid, else API_KEY_NOT_FOUND, _REVOKED or _EXPIRED`,
      tag,
      body: z.strictObject({ api_key: z.string().max(1024) }),
      response: { status: 200, kind: "json", schema: read },
    }),
    defineRoute({
      method: "GET",
      path: `${base}/{api_key_id}`,
      access: CALLERS,
      summary: `Reads a ${type} API key`,
      tag,
      params,
      query: z.strictObject(byIdQuery[type]),
      response: { status: 200, kind: "json", schema: read },
    }),
    defineRoute({
      method: "PATCH",
      path: `${base}/{api_key_id}`,
      access: CALLERS,
      summary: `Changes a ${type} API key's description or revokes it (permanently)`,
      tag,
      params,
      query: z.strictObject(byIdQuery[type]),
      body: updateBody,
      response: { status: 200, kind: "json", schema: read },
    }),
  ] as const satisfies readonly RouteDefinition[];
}

const [
  listUserApiKeysRoute,
  createUserApiKeyRoute,
  checkUserApiKeyRoute,
  getUserApiKeyRoute,
  updateUserApiKeyRoute,
] = ownedApiKeyRoutes("user");
const [
  listTeamApiKeysRoute,
  createTeamApiKeyRoute,
  checkTeamApiKeyRoute,
  getTeamApiKeyRoute,
  updateTeamApiKeyRoute,
] = ownedApiKeyRoutes("team");

export {
  checkTeamApiKeyRoute,
  checkUserApiKeyRoute,
  createTeamApiKeyRoute,
  createUserApiKeyRoute,
  getTeamApiKeyRoute,
  getUserApiKeyRoute,
  listTeamApiKeysRoute,
  listUserApiKeysRoute,
  updateTeamApiKeyRoute,
  updateUserApiKeyRoute,
};

/** The user and team API key routes, in the order the API reference lists them. */
export const ownedApiKeyRouteTable = [
  listUserApiKeysRoute,
  createUserApiKeyRoute,
  checkUserApiKeyRoute,
  getUserApiKeyRoute,
  updateUserApiKeyRoute,
  listTeamApiKeysRoute,
  createTeamApiKeyRoute,
  checkTeamApiKeyRoute,
  getTeamApiKeyRoute,
  updateTeamApiKeyRoute,
] as const satisfies readonly RouteDefinition[];
