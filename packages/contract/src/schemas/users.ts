// The user object (WIRE.md §4.0): the server shape, and the client shape that strips server-only fields.
import { z } from "zod";
import { clientTeamSchema, serverTeamSchema } from "./teams.ts";

export const restrictedReasonSchema = z.object({
  type: z.enum(["anonymous", "email_not_verified", "restricted_by_administrator"]),
});

const clientFields = {
  id: z.uuid(),
  primary_email: z.string().nullable(),
  primary_email_verified: z.boolean(),
  display_name: z.string().nullable(),
  selected_team: clientTeamSchema.nullable(),
  selected_team_id: z.uuid().nullable(),
  profile_image_url: z.string().nullable(),
  signed_up_at_millis: z.number(),
  has_password: z.boolean(),
  otp_auth_enabled: z.boolean(),
  passkey_auth_enabled: z.boolean(),
  client_metadata: z.unknown(),
  client_read_only_metadata: z.unknown(),
  is_anonymous: z.boolean(),
  is_restricted: z.boolean(),
  restricted_reason: restrictedReasonSchema.nullable(),
  restricted_by_admin: z.boolean(),
  restricted_by_admin_reason: z.string().nullable(),
  oauth_providers: z.array(
    z.object({ id: z.string(), account_id: z.string(), email: z.string().nullable() }),
  ),
  auth_with_email: z.boolean(),
  requires_totp_mfa: z.boolean(),
};

export const clientUserSchema = z.object(clientFields).meta({ id: "ClientUser" });

export const serverUserSchema = z
  .object({
    ...clientFields,
    selected_team: serverTeamSchema.nullable(),
    primary_email_auth_enabled: z.boolean(),
    server_metadata: z.unknown(),
    last_active_at_millis: z.number(),
    restricted_by_admin_private_details: z.string().nullable(),
    country_code: z.string().nullable(),
    risk_scores: z.object({
      sign_up: z.object({ bot: z.number(), free_trial_abuse: z.number() }),
    }),
  })
  .meta({ id: "ServerUser" });

export type ClientUser = z.output<typeof clientUserSchema>;
export type ServerUser = z.output<typeof serverUserSchema>;

/** Either shape: the route answers the server shape to server and admin callers and strips it for clients. */
export const userSchema = z.union([serverUserSchema, clientUserSchema]);

/** GET /users: the only paginated list (WIRE.md §4.0). `next_cursor` is the id of the next page's first user. */
export const serverUserListSchema = z.object({
  items: z.array(serverUserSchema),
  is_paginated: z.literal(true),
  pagination: z.object({ next_cursor: z.uuid().nullable() }),
});
