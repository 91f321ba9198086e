// Teams and what hangs off them (WIRE.md §4.0): teams, member profiles, invitations, permissions, definitions;
// and contact channels.
import { z } from "zod";

const clientTeamFields = {
  id: z.uuid(),
  display_name: z.string(),
  profile_image_url: z.string().nullable(),
  client_metadata: z.unknown(),
  client_read_only_metadata: z.unknown(),
};

export const clientTeamSchema = z.object(clientTeamFields).meta({ id: "ClientTeam" });

export const serverTeamSchema = z
  .object({ ...clientTeamFields, created_at_millis: z.number(), server_metadata: z.unknown() })
  .meta({ id: "ServerTeam" });

/** Server and admin callers get the server shape; for clients the route's parse strips the server fields. */
export const teamSchema = z.union([serverTeamSchema, clientTeamSchema]);

export type ClientTeam = z.output<typeof clientTeamSchema>;
export type ServerTeam = z.output<typeof serverTeamSchema>;

export const contactChannelSchema = z
  .object({
    user_id: z.uuid(),
    id: z.uuid(),
    value: z.string(),
    type: z.literal("email"),
    used_for_auth: z.boolean(),
    is_verified: z.boolean(),
    is_primary: z.boolean(),
  })
  .meta({ id: "ContactChannel" });

export type ContactChannel = z.output<typeof contactChannelSchema>;

export const teamInvitationSchema = z
  .object({
    id: z.uuid(),
    team_id: z.uuid(),
    team_display_name: z.string(),
    expires_at_millis: z.number(),
    recipient_email: z.string(),
  })
  .meta({ id: "TeamInvitation" });

export const teamPermissionSchema = z
  .object({ id: z.string(), user_id: z.uuid(), team_id: z.uuid() })
  .meta({ id: "TeamPermission" });

export const permissionDefinitionSchema = z
  .object({
    id: z.string(),
    description: z.string().optional(),
    contained_permission_ids: z.array(z.string()),
  })
  .meta({ id: "TeamPermissionDefinition" });

/** Permission ids of project definitions (system ids start with `$` and are built in). */
export const permissionIdSchema = z
  .string()
  .regex(/^[a-z0-9_:]+$/, "must match ^[a-z0-9_:]+$")
  .max(256);
