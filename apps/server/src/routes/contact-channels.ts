// Contact-channel routes (WIRE.md §4.9): a user's e-mail addresses, and the verification e-mail for one. Clients
// manage only their own; server and admin callers any user's of the project.
import {
  createContactChannelRoute,
  deleteContactChannelRoute,
  getContactChannelRoute,
  listContactChannelsRoute,
  sendChannelVerificationCodeRoute,
  updateContactChannelRoute,
} from "@gatehouse/contract";
import type { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import type { Caller } from "../http/caller.ts";
import { createContactChannelService, toContactChannel } from "../services/contact-channels.ts";
import { TextError } from "../text-error.ts";
import { projectOf } from "./auth.ts";

/** Clients name only themselves (`me` was already replaced by their id). */
function assertOwnChannels(caller: Caller, userId: string): void {
  if (caller.accessType === "client" && caller.user?.id !== userId) {
    throw new TextError(403, "Client can only manage their own contact channels.");
  }
}

export function registerContactChannelRoutes(app: Hono<AppEnv>, deps: Deps): void {
  const channels = createContactChannelService(deps);

  bindRoute(app, deps, createContactChannelRoute, async ({ body }, { caller }) => {
    assertOwnChannels(caller, body.user_id);
    const channel = await channels.create(projectOf(caller).id, body.user_id, {
      value: body.value,
      usedForAuth: body.used_for_auth,
      isPrimary: body.is_primary ?? false,
      isVerified: body.is_verified ?? false,
    });
    return toContactChannel(channel);
  });

  bindRoute(app, deps, listContactChannelsRoute, async ({ query }, { caller }) => {
    assertOwnChannels(caller, query.user_id);
    const items = await channels.list(projectOf(caller).id, query.user_id, query.contact_channel_id);
    return { is_paginated: false as const, items: items.map(toContactChannel) };
  });

  bindRoute(app, deps, getContactChannelRoute, async ({ params }, { caller }) => {
    assertOwnChannels(caller, params.user_id);
    return toContactChannel(
      await channels.get(projectOf(caller).id, params.user_id, params.contact_channel_id),
    );
  });

  bindRoute(app, deps, updateContactChannelRoute, async ({ params, body }, { caller }) => {
    assertOwnChannels(caller, params.user_id);
    const channel = await channels.update(projectOf(caller).id, params.user_id, params.contact_channel_id, {
      value: body.value,
      usedForAuth: body.used_for_auth,
      isPrimary: body.is_primary,
      isVerified: body.is_verified,
    });
    return toContactChannel(channel);
  });

  bindRoute(app, deps, deleteContactChannelRoute, async ({ params }, { caller }) => {
    assertOwnChannels(caller, params.user_id);
    await channels.delete(projectOf(caller).id, params.user_id, params.contact_channel_id);
    return { success: true as const };
  });

  bindRoute(app, deps, sendChannelVerificationCodeRoute, async ({ params, body }, { caller }) => {
    assertOwnChannels(caller, params.user_id);
    await channels.sendVerificationCode(
      projectOf(caller),
      params.user_id,
      params.contact_channel_id,
      body.callback_url,
    );
    return { success: true as const };
  });
}
