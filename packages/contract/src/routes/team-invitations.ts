// Team invitation routes (WIRE.md §4.11): send an invitation code by e-mail, list and revoke pending invitations,
// and accept one with the e-mailed code (with its check-code and details companions) or by id.
import { z } from "zod";
import { defineRoute, type RouteDefinition } from "../route.ts";
import { emailSchema, urlSchema } from "../schemas/auth.ts";
import { listOf, successSchema, userIdOrMe } from "../schemas/common.ts";
import { teamInvitationSchema } from "../schemas/teams.ts";
import { codeSchema } from "./codes.ts";

const ANY_ACCESS = ["client", "server", "admin"] as const;
const TAG = "Team invitations";
const codeBody = z.strictObject({ code: codeSchema });

export const sendTeamInvitationRoute = defineRoute({
  method: "POST",
  path: "/api/v1/team-invitations/send-code",
  access: ANY_ACCESS,
  summary: "E-mails an invitation link to join a team; the answer's id is the invitation's id",
  tag: TAG,
  body: z.strictObject({ team_id: z.uuid(), email: emailSchema, callback_url: urlSchema }),
  response: {
    status: 200,
    kind: "json",
    schema: z.object({ success: z.literal(true), id: z.uuid() }),
  },
});

export const listTeamInvitationsRoute = defineRoute({
  method: "GET",
  path: "/api/v1/team-invitations",
  access: ANY_ACCESS,
  summary:
    "Pending invitations of a team, or addressed to a user's verified e-mails (exactly one of the two)",
  tag: TAG,
  query: z.strictObject({ team_id: z.uuid().optional(), user_id: userIdOrMe.optional() }),
  response: { status: 200, kind: "json", schema: listOf(teamInvitationSchema) },
});

export const revokeTeamInvitationRoute = defineRoute({
  method: "DELETE",
  path: "/api/v1/team-invitations/{id}",
  access: ANY_ACCESS,
  summary: "Revokes an invitation of a team",
  tag: TAG,
  params: z.strictObject({ id: z.uuid() }),
  query: z.strictObject({ team_id: z.uuid() }),
  response: { status: 200, kind: "json", schema: successSchema },
});

export const acceptTeamInvitationRoute = defineRoute({
  method: "POST",
  path: "/api/v1/team-invitations/accept",
  access: ANY_ACCESS,
  user: "required",
  summary: "Joins the invitation's team with the e-mailed code (no change when already a member)",
  tag: TAG,
  body: codeBody,
  response: { status: 200, kind: "json", schema: z.object({}) },
});

export const checkTeamInvitationCodeRoute = defineRoute({
  method: "POST",
  path: "/api/v1/team-invitations/accept/check-code",
  access: ANY_ACCESS,
  user: "required",
  summary: "Checks a team invitation code without using it",
  tag: TAG,
  body: codeBody,
  response: { status: 200, kind: "json", schema: z.object({ is_code_valid: z.literal(true) }) },
});

export const teamInvitationDetailsRoute = defineRoute({
  method: "POST",
  path: "/api/v1/team-invitations/accept/details",
  access: ANY_ACCESS,
  user: "required",
  summary: "The team a team invitation code invites to, without using the code",
  tag: TAG,
  body: codeBody,
  response: {
    status: 200,
    kind: "json",
    schema: z.object({ team_id: z.uuid(), team_display_name: z.string() }),
  },
});

export const acceptTeamInvitationByIdRoute = defineRoute({
  method: "POST",
  path: "/api/v1/team-invitations/{id}/accept",
  access: ANY_ACCESS,
  user: "required",
  summary: "Joins the team of an invitation addressed to one of the user's verified e-mails",
  tag: TAG,
  params: z.strictObject({ id: z.uuid() }),
  query: z.strictObject({ user_id: userIdOrMe }),
  response: { status: 200, kind: "json", schema: z.object({}) },
});

export const teamInvitationRoutes = [
  sendTeamInvitationRoute,
  listTeamInvitationsRoute,
  revokeTeamInvitationRoute,
  acceptTeamInvitationRoute,
  checkTeamInvitationCodeRoute,
  teamInvitationDetailsRoute,
  acceptTeamInvitationByIdRoute,
] as const satisfies readonly RouteDefinition[];
