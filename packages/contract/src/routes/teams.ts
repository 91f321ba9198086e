// Team routes (WIRE.md §4.10, §4.12): teams, memberships, member profiles and direct team permission grants.
// Bodies are declared in their server form, with the narrower client form beside it.
import { z } from "zod";
import { defineRoute, type RouteDefinition } from "../route.ts";
import { listOf, queryBoolean, successSchema, userIdOrMe } from "../schemas/common.ts";
import { clientTeamSchema, teamPermissionSchema, teamSchema } from "../schemas/teams.ts";
import { serverUserSchema } from "../schemas/users.ts";
import { displayNameSchema, metadataSchema } from "./users.ts";

const ANY_ACCESS = ["client", "server", "admin"] as const;
const SERVER_ACCESS = ["server", "admin"] as const;

/** A team always has a name, so the empty string that means "no name" elsewhere (WIRE.md §1.6) is refused. */
const teamDisplayNameSchema = z.string().min(1).max(256);

const clientTeamWritable = {
  profile_image_url: z.string().nullable().optional(),
  client_metadata: metadataSchema.optional(),
};
const serverTeamWritable = {
  ...clientTeamWritable,
  client_read_only_metadata: metadataSchema.optional(),
  server_metadata: metadataSchema.optional(),
};

const clientTeamCreateSchema = z.strictObject({
  display_name: teamDisplayNameSchema,
  creator_user_id: userIdOrMe.optional(),
  ...clientTeamWritable,
});
const serverTeamCreateSchema = z.strictObject({
  display_name: teamDisplayNameSchema,
  creator_user_id: userIdOrMe.optional(),
  ...serverTeamWritable,
});

const clientTeamUpdateSchema = z
  .strictObject({ display_name: teamDisplayNameSchema.optional(), ...clientTeamWritable })
  .default({});
const serverTeamUpdateSchema = z
  .strictObject({ display_name: teamDisplayNameSchema.optional(), ...serverTeamWritable })
  .default({});

const clientMemberProfileFields = {
  team_id: z.uuid(),
  user_id: z.uuid(),
  display_name: z.string().nullable(),
  profile_image_url: z.string().nullable(),
};

export const clientTeamMemberProfileSchema = z
  .object(clientMemberProfileFields)
  .meta({ id: "ClientTeamMemberProfile" });

export const serverTeamMemberProfileSchema = z
  .object({ ...clientMemberProfileFields, user: serverUserSchema })
  .meta({ id: "ServerTeamMemberProfile" });

/** Server and admin callers get the profile with its server user; for clients the parse keeps the client shape. */
export const teamMemberProfileSchema = z.union([
  serverTeamMemberProfileSchema,
  clientTeamMemberProfileSchema,
]);

const teamParams = z.strictObject({ team_id: z.uuid() });
const memberParams = z.strictObject({ team_id: z.uuid(), user_id: userIdOrMe });
const grantParams = z.strictObject({
  team_id: z.uuid(),
  user_id: userIdOrMe,
  permission_id: z.string().min(1).max(256),
});

export const listTeamsRoute = defineRoute({
  method: "GET",
  path: "/api/v1/teams",
  access: ANY_ACCESS,
  summary: "Lists teams, oldest first: the caller's own (clients), a user's, or every team of the project",
  tag: "Teams",
  query: z.strictObject({ user_id: userIdOrMe.optional() }),
  response: { status: 200, kind: "json", schema: listOf(teamSchema), clientSchema: listOf(clientTeamSchema) },
});

export const createTeamRoute = defineRoute({
  method: "POST",
  path: "/api/v1/teams",
  access: ANY_ACCESS,
  summary: "Creates a team; its creator joins it with the creator default permissions",
  tag: "Teams",
  query: z.strictObject({ add_current_user: queryBoolean.optional() }),
  body: serverTeamCreateSchema,
  clientBody: clientTeamCreateSchema,
  response: { status: 201, kind: "json", schema: teamSchema, clientSchema: clientTeamSchema },
});

export const getTeamRoute = defineRoute({
  method: "GET",
  path: "/api/v1/teams/{team_id}",
  access: ANY_ACCESS,
  summary: "Reads a team (clients: a team they belong to)",
  tag: "Teams",
  params: teamParams,
  response: { status: 200, kind: "json", schema: teamSchema, clientSchema: clientTeamSchema },
});

export const updateTeamRoute = defineRoute({
  method: "PATCH",
  path: "/api/v1/teams/{team_id}",
  access: ANY_ACCESS,
  summary: "Updates a team (clients need $update_team)",
  tag: "Teams",
  params: teamParams,
  body: serverTeamUpdateSchema,
  clientBody: clientTeamUpdateSchema,
  response: { status: 200, kind: "json", schema: teamSchema, clientSchema: clientTeamSchema },
});

export const deleteTeamRoute = defineRoute({
  method: "DELETE",
  path: "/api/v1/teams/{team_id}",
  access: ANY_ACCESS,
  summary: "Deletes a team with its memberships, permissions and invitations (clients need $delete_team)",
  tag: "Teams",
  params: teamParams,
  response: { status: 200, kind: "json", schema: successSchema },
});

export const addTeamMemberRoute = defineRoute({
  method: "POST",
  path: "/api/v1/team-memberships/{team_id}/{user_id}",
  access: SERVER_ACCESS,
  summary: "Adds a user to a team with the member default permissions",
  tag: "Teams",
  params: memberParams,
  response: {
    status: 201,
    kind: "json",
    schema: z.object({ team_id: z.uuid(), user_id: z.uuid() }),
  },
});

export const removeTeamMemberRoute = defineRoute({
  method: "DELETE",
  path: "/api/v1/team-memberships/{team_id}/{user_id}",
  access: ANY_ACCESS,
  summary: "Leaves a team (`me`) or removes a member (clients need $remove_members)",
  tag: "Teams",
  params: memberParams,
  response: { status: 200, kind: "json", schema: successSchema },
});

export const listTeamMemberProfilesRoute = defineRoute({
  method: "GET",
  path: "/api/v1/team-member-profiles",
  access: ANY_ACCESS,
  summary: "Lists member profiles (clients: of one of their teams; others' need $read_members)",
  tag: "Teams",
  query: z.strictObject({ team_id: z.uuid().optional(), user_id: userIdOrMe.optional() }),
  clientQuery: z.strictObject({ team_id: z.uuid(), user_id: userIdOrMe.optional() }),
  response: {
    status: 200,
    kind: "json",
    schema: listOf(teamMemberProfileSchema),
    clientSchema: listOf(clientTeamMemberProfileSchema),
  },
});

export const getTeamMemberProfileRoute = defineRoute({
  method: "GET",
  path: "/api/v1/team-member-profiles/{team_id}/{user_id}",
  access: ANY_ACCESS,
  summary: "Reads a member profile (clients: others' need $read_members)",
  tag: "Teams",
  params: memberParams,
  response: {
    status: 200,
    kind: "json",
    schema: teamMemberProfileSchema,
    clientSchema: clientTeamMemberProfileSchema,
  },
});

export const updateTeamMemberProfileRoute = defineRoute({
  method: "PATCH",
  path: "/api/v1/team-member-profiles/{team_id}/{user_id}",
  access: ANY_ACCESS,
  summary: "Updates a member's per-team name and image (clients: only their own)",
  tag: "Teams",
  params: memberParams,
  body: z
    .strictObject({
      display_name: displayNameSchema.optional(),
      profile_image_url: z.string().nullable().optional(),
    })
    .default({}),
  response: {
    status: 200,
    kind: "json",
    schema: teamMemberProfileSchema,
    clientSchema: clientTeamMemberProfileSchema,
  },
});

export const listTeamPermissionsRoute = defineRoute({
  method: "GET",
  path: "/api/v1/team-permissions",
  access: ANY_ACCESS,
  summary: "Lists team permissions, direct grants only unless `recursive=true` (clients: their own)",
  tag: "Team permissions",
  query: z.strictObject({
    team_id: z.uuid().optional(),
    user_id: userIdOrMe.optional(),
    permission_id: z.string().min(1).max(256).optional(),
    recursive: queryBoolean.default(false),
  }),
  response: { status: 200, kind: "json", schema: listOf(teamPermissionSchema) },
});

export const grantTeamPermissionRoute = defineRoute({
  method: "POST",
  path: "/api/v1/team-permissions/{team_id}/{user_id}/{permission_id}",
  access: SERVER_ACCESS,
  summary: "Grants a team permission to a member directly (idempotent)",
  tag: "Team permissions",
  params: grantParams,
  response: { status: 201, kind: "json", schema: teamPermissionSchema },
});

export const revokeTeamPermissionRoute = defineRoute({
  method: "DELETE",
  path: "/api/v1/team-permissions/{team_id}/{user_id}/{permission_id}",
  access: SERVER_ACCESS,
  summary: "Revokes a direct team permission grant",
  tag: "Team permissions",
  params: grantParams,
  response: { status: 200, kind: "json", schema: successSchema },
});

/** The team routes, in the order the API reference lists them. */
export const teamRoutes = [
  listTeamsRoute,
  createTeamRoute,
  getTeamRoute,
  updateTeamRoute,
  deleteTeamRoute,
  addTeamMemberRoute,
  removeTeamMemberRoute,
  listTeamMemberProfilesRoute,
  getTeamMemberProfileRoute,
  updateTeamMemberProfileRoute,
  listTeamPermissionsRoute,
  grantTeamPermissionRoute,
  revokeTeamPermissionRoute,
] as const satisfies readonly RouteDefinition[];
