// Routes of Stack features that lean on an outside service Gatehouse does not have (AI models, ClickHouse, managed
// e-mail domains, Stack's feedback inbox): each answers as Stack's backend does when the feature is not set up. The
// ones that need no outside service are served for real (data-vault.ts, outside-services.ts).
import {
  aiQueryLatestRoute,
  aiQueryRoute,
  analyticsQueryRoute,
  appendAiChatMessageRoute,
  applyManagedEmailDomainRoute,
  boostEmailCapacityRoute,
  checkManagedEmailDomainRoute,
  createAiConversationRoute,
  deleteManagedEmailDomainRoute,
  getAiChatThreadRoute,
  getDataVaultValueRoute,
  getEmailDeliveryInfoRoute,
  KnownErrors,
  listAiConversationsRoute,
  listManagedEmailDomainsRoute,
  previewAffectedUsersRoute,
  rewriteTemplateSourceRoute,
  sendFeedbackRoute,
  sendTestWebhookRoute,
  setDataVaultValueRoute,
  setupManagedEmailDomainRoute,
  transferProjectRoute,
} from "@gatehouse/contract";
import type { Hono } from "hono";
import { createOutsideServicesRepo } from "../db/outside-services-repo.ts";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import { projectOf, userOf } from "../routes/auth.ts";
import { TextError } from "../text-error.ts";
import { createDataVault } from "./data-vault.ts";
import { createOutsideServices } from "./outside-services.ts";

export const AI_UNAVAILABLE = "AI features need a language model provider, which this server does not have.";
export const MANAGED_EMAIL_UNAVAILABLE =
  "Managed e-mail domains need Stack's hosted e-mail service, which this server does not have. Configure your own SMTP server instead.";
export const FEEDBACK_UNAVAILABLE =
  "Feedback goes to Stack Auth's team, which this server does not forward to.";

export function registerOutsideServiceRoutes(app: Hono<AppEnv>, deps: Deps): void {
  const repo = createOutsideServicesRepo(deps.db);
  const services = createOutsideServices(deps, repo, deps.clock);

  const vault = createDataVault(deps, deps.dataVaultBox, deps.clock);
  bindRoute(app, deps, getDataVaultValueRoute, async ({ params, body }, { caller }) =>
    vault.get(projectOf(caller), params.id, body.hashed_key),
  );
  bindRoute(app, deps, setDataVaultValueRoute, async ({ params, body }, { caller }) => {
    await vault.set(projectOf(caller), params.id, body.hashed_key, body.encrypted_value);
    return { success: true as const };
  });

  bindRoute(app, deps, getEmailDeliveryInfoRoute, async (_input, { caller }) =>
    services.deliveryInfo(projectOf(caller).id),
  );
  bindRoute(app, deps, boostEmailCapacityRoute, async (_input, { caller }) =>
    services.boostCapacity(projectOf(caller).id),
  );

  bindRoute(app, deps, getAiChatThreadRoute, async ({ params }, { caller }) => ({
    messages: await repo.chatMessages(projectOf(caller).id, params.thread_id),
  }));
  bindRoute(app, deps, appendAiChatMessageRoute, async ({ params, body }, { caller }) => {
    await repo.addChatMessage(projectOf(caller).id, params.thread_id, body.message);
    return {};
  });

  bindRoute(app, deps, listAiConversationsRoute, async () => ({ conversations: [] }));
  for (const route of [createAiConversationRoute, aiQueryRoute, aiQueryLatestRoute]) {
    bindRoute(app, deps, route, async () => {
      throw new TextError(400, AI_UNAVAILABLE);
    });
  }
  bindRoute(app, deps, rewriteTemplateSourceRoute, async () => {
    throw KnownErrors.TEMPLATE_SOURCE_REWRITE_ERROR({ error: AI_UNAVAILABLE });
  });

  bindRoute(app, deps, analyticsQueryRoute, async () => {
    throw KnownErrors.ANALYTICS_NOT_ENABLED();
  });

  bindRoute(app, deps, listManagedEmailDomainsRoute, async () => ({ items: [] }));
  for (const route of [
    setupManagedEmailDomainRoute,
    checkManagedEmailDomainRoute,
    applyManagedEmailDomainRoute,
    deleteManagedEmailDomainRoute,
  ]) {
    bindRoute(app, deps, route, async () => {
      throw new TextError(400, MANAGED_EMAIL_UNAVAILABLE);
    });
  }

  bindRoute(app, deps, sendTestWebhookRoute, async ({ body }, { caller }) =>
    services.sendTestWebhook(projectOf(caller), body.endpoint_id),
  );

  bindRoute(app, deps, previewAffectedUsersRoute, async ({ query, body }, { caller }) =>
    services.previewAffectedUsers(
      projectOf(caller).id,
      body.onboarding.require_email_verification,
      Number(query.limit ?? "10"),
    ),
  );

  bindRoute(app, deps, transferProjectRoute, async ({ body }, { caller }) =>
    services.transferProject(projectOf(caller).id, userOf(caller).id, body.project_id, body.new_team_id),
  );

  bindRoute(app, deps, sendFeedbackRoute, async () => {
    throw new TextError(400, FEEDBACK_UNAVAILABLE);
  });
}
