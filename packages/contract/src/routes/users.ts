// User routes (WIRE.md §4.8): the current user (`/users/me`, matched before `/users/{user_id}`), and the server's
// user management: list, create, read, update, delete. Also the create and update bodies of the field table.
import { z } from "zod";
import { defineRoute } from "../route.ts";
import { emailSchema, passwordSchema } from "../schemas/auth.ts";
import { queryBoolean, successSchema } from "../schemas/common.ts";
import { clientUserSchema, serverUserListSchema, serverUserSchema, userSchema } from "../schemas/users.ts";

const MAX_METADATA_BYTES = 64 * 1024;
/** Users per page of GET /users: the default, and the most one page serves (WIRE.md §4.8). */
export const USER_PAGE_DEFAULT = 100;
export const USER_PAGE_MAX = 500;

/** Metadata: any JSON value, at most 64 KiB serialised (WIRE.md §1.6). */
export const metadataSchema = z
  .unknown()
  .refine((v) => JSON.stringify(v ?? null).length <= MAX_METADATA_BYTES, "must be at most 64 KiB as JSON");

/** `""` is stored as null (WIRE.md §1.6). */
export const displayNameSchema = z
  .string()
  .max(256)
  .nullable()
  .transform((v) => (v === "" ? null : v));

const totpSecretSchema = z.base64().refine((v) => {
  const bytes = Math.floor((v.replace(/=+$/, "").length * 3) / 4);
  return bytes >= 10 && bytes <= 64;
}, "must decode to 10 to 64 bytes");

/** ISO 3166-1 alpha-2, stored upper-case. */
const countryCodeSchema = z
  .string()
  .regex(/^[A-Za-z]{2}$/, "must be an ISO 3166-1 alpha-2 code")
  .transform((v) => v.toUpperCase());

const score = z.number().int().min(0).max(100);
const riskScoresSchema = z.strictObject({
  sign_up: z.strictObject({ bot: score, free_trial_abuse: score }),
});

/** Fields every writer may send; `profile_image_url` is checked by the service (a text error). */
const commonWritableFields = {
  display_name: displayNameSchema.optional(),
  profile_image_url: z.string().nullable().optional(),
  client_metadata: metadataSchema.optional(),
  primary_email: emailSchema.nullable().optional(),
  totp_secret_base64: totpSecretSchema.nullable().optional(),
  otp_auth_enabled: z.boolean().optional(),
};

/** Fields only server and admin callers may send, on create and update alike. */
const serverWritableFields = {
  client_read_only_metadata: metadataSchema.optional(),
  server_metadata: metadataSchema.optional(),
  primary_email_verified: z.boolean().optional(),
  primary_email_auth_enabled: z.boolean().optional(),
  password_hash: z.string().optional(),
  restricted_by_admin: z.boolean().optional(),
  restricted_by_admin_reason: z.string().nullable().optional(),
  restricted_by_admin_private_details: z.string().nullable().optional(),
  country_code: countryCodeSchema.nullable().optional(),
  risk_scores: riskScoresSchema.optional(),
};

/** Client-writable user fields (the client column of WIRE.md §4.8). */
export const clientUserUpdateSchema = z.strictObject({
  ...commonWritableFields,
  selected_team_id: z.uuid().nullable().optional(),
  passkey_auth_enabled: z.boolean().optional(),
});

/** Server update fields: `password: null` removes the password; `is_anonymous` can only become false. */
export const serverUserUpdateSchema = z.strictObject({
  ...clientUserUpdateSchema.shape,
  ...serverWritableFields,
  password: passwordSchema.nullable().optional(),
  is_anonymous: z.literal(false).optional(),
});

/** POST /users: the server create column. */
export const serverUserCreateSchema = z.strictObject({
  ...commonWritableFields,
  ...serverWritableFields,
  password: passwordSchema.nullable().optional(),
  is_anonymous: z.boolean().optional(),
  oauth_providers: z
    .array(
      z.strictObject({
        id: z.string().min(1),
        account_id: z.string().min(1),
        email: z.string().max(256).nullable().optional(),
      }),
    )
    .optional(),
});

export type ServerUserUpdate = z.output<typeof serverUserUpdateSchema>;
export type ServerUserCreate = z.output<typeof serverUserCreateSchema>;

/** Numbers of at least 1; anything above the maximum is served as the maximum, however large. */
const pageLimitSchema = z
  .string()
  .regex(/^[0-9]+$/, "must be an integer")
  .transform(Number)
  .refine((n) => n >= 1, "must be at least 1")
  .transform((n) => Math.min(n, USER_PAGE_MAX));

export const listUsersQuerySchema = z.strictObject({
  limit: pageLimitSchema.optional(),
  cursor: z.uuid().optional(),
  order_by: z.enum(["signed_up_at", "last_active_at"]).optional(),
  desc: queryBoolean.optional(),
  query: z.string().optional(),
  team_id: z.uuid().optional(),
  include_restricted: queryBoolean.optional(),
  include_anonymous: queryBoolean.optional(),
  only_anonymous: queryBoolean.optional(),
});

/** Any string: `me` is the caller's user; an id that is not a UUID names no user (USER_NOT_FOUND, not a schema error). */
const userIdParams = z.strictObject({ user_id: z.string() });

export const getCurrentUserRoute = defineRoute({
  method: "GET",
  path: "/api/v1/users/me",
  access: ["client", "server", "admin"],
  summary: "The signed-in user (the client shape for client callers)",
  tag: "Users",
  response: { status: 200, kind: "json", schema: userSchema, clientSchema: clientUserSchema },
});

export const updateCurrentUserRoute = defineRoute({
  method: "PATCH",
  path: "/api/v1/users/me",
  access: ["client", "server", "admin"],
  summary:
    "Updates the signed-in user: client callers the client fields only, server and admin callers all fields",
  tag: "Users",
  body: serverUserUpdateSchema,
  clientBody: clientUserUpdateSchema,
  response: { status: 200, kind: "json", schema: userSchema, clientSchema: clientUserSchema },
});

export const deleteCurrentUserRoute = defineRoute({
  method: "DELETE",
  path: "/api/v1/users/me",
  access: ["client", "server", "admin"],
  summary: "Deletes the signed-in user (clients only when the project allows it)",
  tag: "Users",
  response: { status: 200, kind: "json", schema: successSchema },
});

export const listUsersRoute = defineRoute({
  method: "GET",
  path: "/api/v1/users",
  access: ["server", "admin"],
  summary: "Lists the project's users, one page at a time (keyset cursor)",
  tag: "Users",
  query: listUsersQuerySchema,
  response: { status: 200, kind: "json", schema: serverUserListSchema },
});

export const createUserRoute = defineRoute({
  method: "POST",
  path: "/api/v1/users",
  access: ["server", "admin"],
  summary: "Creates a user (sign-up settings do not apply)",
  tag: "Users",
  body: serverUserCreateSchema,
  response: { status: 201, kind: "json", schema: serverUserSchema },
});

export const getUserRoute = defineRoute({
  method: "GET",
  path: "/api/v1/users/{user_id}",
  access: ["server", "admin"],
  summary: "A user of the project",
  tag: "Users",
  params: userIdParams,
  response: { status: 200, kind: "json", schema: serverUserSchema },
});

export const updateUserRoute = defineRoute({
  method: "PATCH",
  path: "/api/v1/users/{user_id}",
  access: ["server", "admin"],
  summary: "Updates a user",
  tag: "Users",
  params: userIdParams,
  body: serverUserUpdateSchema,
  response: { status: 200, kind: "json", schema: serverUserSchema },
});

export const deleteUserRoute = defineRoute({
  method: "DELETE",
  path: "/api/v1/users/{user_id}",
  access: ["server", "admin"],
  summary: "Deletes a user with its sessions, memberships, grants and contact channels",
  tag: "Users",
  params: userIdParams,
  response: { status: 200, kind: "json", schema: successSchema },
});

/** The user routes, in the order the API reference lists them; `/users/me` before `/users/{user_id}`. */
export const userRoutes = [
  getCurrentUserRoute,
  updateCurrentUserRoute,
  deleteCurrentUserRoute,
  listUsersRoute,
  createUserRoute,
  getUserRoute,
  updateUserRoute,
  deleteUserRoute,
] as const;
