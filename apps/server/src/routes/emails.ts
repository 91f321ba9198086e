// E-mail for apps (Stack Auth's `/emails/*`): send-email, notification preferences, the unsubscribe link, the
// outbox and the admin preview. Thin handlers over src/email/ (send-email, notification-preferences, outbox-stack).
import {
  getOutboxEmailRoute,
  listNotificationPreferencesRoute,
  listOutboxRoute,
  renderEmailRoute,
  sendEmailRoute,
  unsubscribeLinkRoute,
  unsubscribeOneClickRoute,
  updateNotificationPreferenceRoute,
  updateOutboxEmailRoute,
} from "@gatehouse/contract";
import type { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { createStackTsxEmails } from "../email/stack-tsx.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import type { Caller } from "../http/caller.ts";
import { createEmailTemplateService } from "../services/email-templates.ts";
import { TextError } from "../text-error.ts";
import { projectOf } from "./auth.ts";

/** Clients manage only their own preferences (`me` was already replaced by their id); Stack answers 403. */
function assertOwnPreferences(caller: Caller, userId: string, verb: "view" | "manage"): void {
  if (caller.accessType === "client" && caller.user?.id !== userId) {
    throw new TextError(403, `You can only ${verb} your own notification preferences`);
  }
}

const page = (message: string) =>
  new Response(`<!doctype html><meta charset="utf-8"><title>Unsubscribe</title><p>${message}</p>`, {
    status: 200,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  });

export function registerEmailRoutes(app: Hono<AppEnv>, deps: Deps): void {
  const tsx = createStackTsxEmails(createEmailTemplateService(deps));

  bindRoute(app, deps, sendEmailRoute, async ({ body }, { caller }) =>
    deps.sendEmail.send(projectOf(caller), body),
  );

  bindRoute(app, deps, listNotificationPreferencesRoute, async ({ params }, { caller }) => {
    assertOwnPreferences(caller, params.user_id, "view");
    return {
      items: await deps.notificationPreferences.list(projectOf(caller).id, params.user_id),
      is_paginated: false as const,
    };
  });

  bindRoute(app, deps, updateNotificationPreferenceRoute, async ({ params, body }, { caller }) => {
    assertOwnPreferences(caller, params.user_id, "manage");
    return deps.notificationPreferences.set(
      projectOf(caller).id,
      params.user_id,
      params.notification_category_id,
      body.enabled,
    );
  });

  // The link needs no key: its signature names the project, the user and the category (email/unsubscribe.ts).
  const unsubscribe = async (code: string) => {
    const claims = deps.unsubscribeTokens.verify(code);
    await deps.notificationPreferences.set(claims.projectId, claims.userId, claims.categoryId, false);
    return page("Successfully unsubscribed from notification group");
  };
  bindRoute(app, deps, unsubscribeLinkRoute, async ({ query }) => unsubscribe(query.code));
  bindRoute(app, deps, unsubscribeOneClickRoute, async ({ query }) => unsubscribe(query.code));

  bindRoute(app, deps, listOutboxRoute, async ({ query }, { caller }) =>
    deps.stackOutbox.list(projectOf(caller).id, query),
  );
  bindRoute(app, deps, getOutboxEmailRoute, async ({ params }, { caller }) =>
    deps.stackOutbox.get(projectOf(caller).id, params.id),
  );
  bindRoute(app, deps, updateOutboxEmailRoute, async ({ params, body }, { caller }) =>
    deps.stackOutbox.update(projectOf(caller).id, params.id, body),
  );

  bindRoute(app, deps, renderEmailRoute, async ({ body }, { caller }) => tsx.render(projectOf(caller), body));
}
