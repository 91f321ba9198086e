// User routes (WIRE.md §4.8). The current user first; the server's user management arrives with the users issue.
import { z } from "zod";
import { defineRoute } from "../route.ts";
import { emailSchema } from "../schemas/auth.ts";
import { successSchema } from "../schemas/common.ts";
import { userSchema } from "../schemas/users.ts";

const MAX_METADATA_BYTES = 64 * 1024;

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

/** Client-writable user fields (WIRE.md §4.8). `profile_image_url` is checked by the service (a text error). */
export const clientUserUpdateSchema = z.strictObject({
  display_name: displayNameSchema.optional(),
  profile_image_url: z.string().nullable().optional(),
  client_metadata: metadataSchema.optional(),
  primary_email: emailSchema.nullable().optional(),
  selected_team_id: z.uuid().nullable().optional(),
  totp_secret_base64: z
    .base64()
    .refine((v) => {
      const bytes = Math.floor((v.replace(/=+$/, "").length * 3) / 4);
      return bytes >= 10 && bytes <= 64;
    }, "must decode to 10 to 64 bytes")
    .nullable()
    .optional(),
  otp_auth_enabled: z.boolean().optional(),
  passkey_auth_enabled: z.boolean().optional(),
});

export const getCurrentUserRoute = defineRoute({
  method: "GET",
  path: "/api/v1/users/me",
  access: ["client", "server", "admin"],
  summary: "The signed-in user (the client shape for client callers)",
  tag: "Users",
  response: { status: 200, kind: "json", schema: userSchema },
});

export const updateCurrentUserRoute = defineRoute({
  method: "PATCH",
  path: "/api/v1/users/me",
  access: ["client", "server", "admin"],
  summary: "Updates the signed-in user's own fields",
  tag: "Users",
  body: clientUserUpdateSchema,
  response: { status: 200, kind: "json", schema: userSchema },
});

export const deleteCurrentUserRoute = defineRoute({
  method: "DELETE",
  path: "/api/v1/users/me",
  access: ["client", "server", "admin"],
  summary: "Deletes the signed-in user (clients only when the project allows it)",
  tag: "Users",
  response: { status: 200, kind: "json", schema: successSchema },
});

/** The user routes, in the order the API reference lists them. */
export const userRoutes = [getCurrentUserRoute, updateCurrentUserRoute, deleteCurrentUserRoute] as const;
