// Contact-channel routes of WIRE.md §4.9: create, list, read, update and delete a user's e-mail addresses, and
// e-mail a verification link for one. The verify endpoints and the deprecated send-verification-code are in codes.ts.
import { z } from "zod";
import { defineRoute } from "../route.ts";
import { emailSchema, urlSchema } from "../schemas/auth.ts";
import { listOf, successSchema, userIdOrMe } from "../schemas/common.ts";
import { contactChannelSchema } from "../schemas/teams.ts";

const ANY_ACCESS = ["client", "server", "admin"] as const;
const TAG = "Contact channels";

const channelParams = z.strictObject({ user_id: userIdOrMe, contact_channel_id: z.uuid() });

/** What a client may send on create; server and admin callers may also set `is_verified`. */
const clientCreateBody = z.strictObject({
  user_id: userIdOrMe,
  value: emailSchema,
  type: z.literal("email"),
  used_for_auth: z.boolean(),
  is_primary: z.boolean().optional(),
});

/** What a client may send on update; server and admin callers may also set `is_verified`. */
const clientUpdateBody = z.strictObject({
  value: emailSchema.optional(),
  type: z.literal("email").optional(),
  used_for_auth: z.boolean().optional(),
  is_primary: z.boolean().optional(),
});

const serverOnlyFields = { is_verified: z.boolean().optional() };

export const createContactChannelRoute = defineRoute({
  method: "POST",
  path: "/api/v1/contact-channels",
  access: ANY_ACCESS,
  summary: "Adds an e-mail address to a user",
  tag: TAG,
  body: clientCreateBody.extend(serverOnlyFields),
  clientBody: clientCreateBody,
  response: { status: 201, kind: "json", schema: contactChannelSchema },
});

export const listContactChannelsRoute = defineRoute({
  method: "GET",
  path: "/api/v1/contact-channels",
  access: ANY_ACCESS,
  summary: "Lists a user's e-mail addresses, oldest first",
  tag: TAG,
  query: z.strictObject({ user_id: userIdOrMe, contact_channel_id: z.uuid().optional() }),
  response: { status: 200, kind: "json", schema: listOf(contactChannelSchema) },
});

export const getContactChannelRoute = defineRoute({
  method: "GET",
  path: "/api/v1/contact-channels/{user_id}/{contact_channel_id}",
  access: ANY_ACCESS,
  summary: "One of a user's e-mail addresses",
  tag: TAG,
  params: channelParams,
  response: { status: 200, kind: "json", schema: contactChannelSchema },
});

export const updateContactChannelRoute = defineRoute({
  method: "PATCH",
  path: "/api/v1/contact-channels/{user_id}/{contact_channel_id}",
  access: ANY_ACCESS,
  summary: "Changes an e-mail address, its sign-in flag or makes it the primary one",
  tag: TAG,
  params: channelParams,
  body: clientUpdateBody.extend(serverOnlyFields),
  clientBody: clientUpdateBody,
  response: { status: 200, kind: "json", schema: contactChannelSchema },
});

export const deleteContactChannelRoute = defineRoute({
  method: "DELETE",
  path: "/api/v1/contact-channels/{user_id}/{contact_channel_id}",
  access: ANY_ACCESS,
  summary: "Removes an e-mail address from a user, and sign-in with it",
  tag: TAG,
  params: channelParams,
  response: { status: 200, kind: "json", schema: successSchema },
});

export const sendChannelVerificationCodeRoute = defineRoute({
  method: "POST",
  path: "/api/v1/contact-channels/{user_id}/{contact_channel_id}/send-verification-code",
  access: ANY_ACCESS,
  summary: "E-mails a verification link for one of a user's addresses",
  tag: TAG,
  params: channelParams,
  body: z.strictObject({ callback_url: urlSchema }),
  response: { status: 200, kind: "json", schema: successSchema },
});

export const contactChannelRoutes = [
  createContactChannelRoute,
  listContactChannelsRoute,
  getContactChannelRoute,
  updateContactChannelRoute,
  deleteContactChannelRoute,
  sendChannelVerificationCodeRoute,
] as const;
