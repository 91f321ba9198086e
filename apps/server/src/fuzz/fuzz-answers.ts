// What a fuzzed request may get back: never a 5xx; a 4xx is a known error of the catalogue with its code in both
// header spellings, or one of the few plain-text and OAuth answers WIRE.md documents as not known errors.
import { KnownErrors } from "@gatehouse/contract";
import { PAYMENTS_NOT_SET_UP, STRIPE_UNAVAILABLE } from "../unconfigured/payments.ts";
import { AI_UNAVAILABLE, FEEDBACK_UNAVAILABLE, MANAGED_EMAIL_UNAVAILABLE } from "../unconfigured/routes.ts";

/** An exact text, or a pattern for texts with a value in them. */
const exactly = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);

/**
 * Plain-text client errors (not known errors: WIRE.md §1.7 forbids inventing codes, so Gatehouse's own failures are
 * text). Each is listed with the section that documents it, so that a new text answer is a decision, not an accident.
 */
const TEXT_ERRORS: { status: number; text: RegExp; wire: string }[] = [
  {
    status: 400,
    text: /^Conflicting values in headers x-stack-[\w-]+ and x-hexclave-[\w-]+\.$/,
    wire: "§1.2",
  },
  { status: 413, text: exactly("Request body too large."), wire: "§1.6" },
  { status: 400, text: exactly("Invalid profile image URL"), wire: "§1.6" },
  { status: 404, text: exactly("Not found."), wire: "§1.9" },
  { status: 405, text: exactly("Method not allowed."), wire: "§1.9" },
  { status: 429, text: exactly("Too many requests. Please try again later."), wire: "§1.10" },
  { status: 404, text: exactly("Project not found."), wire: "§3.2" },
  {
    status: 400,
    text: exactly(
      "Invalid redirect URI. Your redirect URI must be the same as the one used to get the authorization code.",
    ),
    wire: "§3.5",
  },
  { status: 400, text: exactly("User already has a password set."), wire: "§4.1" },
  { status: 403, text: exactly("OTP sign-in is not enabled for this project"), wire: "§4.2, §7" },
  { status: 400, text: exactly("Invalid OAuth state. Please try signing in again."), wire: "§4.5" },
  { status: 400, text: exactly("Inner OAuth cookie not found. Please try signing in again."), wire: "§4.5" },
  { status: 400, text: exactly("Invalid SSO state. Please try signing in again."), wire: "[GO] sso/flow.ts" },
  { status: 403, text: exactly("Client can only manage their own sessions."), wire: "§4.6" },
  { status: 404, text: exactly("Session not found."), wire: "§4.6" },
  { status: 400, text: exactly("only_anonymous requires include_anonymous=true"), wire: "§4.8" },
  { status: 400, text: exactly("Invalid password hash."), wire: "§4.8" },
  { status: 400, text: exactly("Cannot set both password and password_hash."), wire: "§4.8" },
  { status: 400, text: exactly("Client user deletion is not enabled for this project"), wire: "§4.8, §7" },
  { status: 403, text: exactly("Client can only manage their own contact channels."), wire: "§4.9" },
  { status: 400, text: exactly("Contact channel already exists"), wire: "§4.9" },
  { status: 400, text: exactly("Contact channel not found"), wire: "§4.9" },
  { status: 404, text: exactly("Contact channel not found"), wire: "§4.9" },
  {
    status: 403,
    text: exactly(
      'Client can only list teams for their own user. user_id must be either "me" or the ID of the current user',
    ),
    wire: "§1.9, §4.10",
  },
  { status: 403, text: exactly("Client team creation is disabled for this project"), wire: "§4.10, §7" },
  {
    status: 403,
    text: exactly(
      "You cannot create a team as a user that is not yourself. Make sure you set the creator_user_id to 'me'.",
    ),
    wire: "§4.10",
  },
  { status: 403, text: exactly("Client can only update their own team member profile."), wire: "§4.10" },
  { status: 400, text: exactly("Exactly one of team_id and user_id must be given."), wire: "§4.11" },
  { status: 404, text: exactly("Team invitation not found."), wire: "§4.11" },
  {
    status: 403,
    text: /^Client can only (list invitations|accept invitations|list permissions) for their own user\.$/,
    wire: "§4.11, §4.12",
  },
  { status: 400, text: exactly("System permissions cannot be modified."), wire: "§4.12" },
  {
    status: 400,
    // One line per broken production-mode rule.
    text: /^((Localhost is not allowed in production mode, turn off Allow localhost in project settings|(Localhost domains are not allowed to be trusted in production mode|Direct IPs are not valid for trusted domains in production mode|Trusted domains should be HTTPS): .+)(\n|$))+$/,
    wire: "§4.13, §7",
  },
  { status: 400, text: exactly("The internal project cannot be deleted."), wire: "§4.13" },
  { status: 400, text: /^Unknown template variable: .+$/, wire: "§4.15" },
  { status: 400, text: exactly("Webhook URL must be a public address."), wire: "§4.16" },
  {
    status: 400,
    text: exactly("Webhook URL must use https in production mode."),
    wire: "§4.16 (https in production)",
  },
  { status: 401, text: exactly("Invalid or expired webhook management token."), wire: "§4.16" },
  { status: 404, text: exactly("Webhook endpoint not found."), wire: "§4.16" },
  { status: 403, text: exactly("Client can only access their own connected accounts."), wire: "§4.17" },
  // Gatehouse's own answers ([GO] and [GF] features), text as §1.7 requires for failures Stack Auth has no code for.
  {
    status: 400,
    text: exactly("Set a TOTP secret before generating recovery codes."),
    wire: "§1.7 [GO] §4.3",
  },
  { status: 400, text: exactly("Invalid recovery code."), wire: "§1.7 [GO] §4.3" },
  {
    status: 400,
    text: /^(restricted_by_admin_reason|restricted_by_admin_private_details) requires restricted_by_admin=true$/,
    wire: "§1.7 [GF] §4.8",
  },
  {
    status: 400,
    text: /^primary_email_(verified|auth_enabled) cannot be true without primary_email$/,
    wire: "§1.7 [GF] §4.8",
  },
  {
    status: 400,
    text: exactly("The cursor user does not exist. Start again without a cursor."),
    wire: "§1.7 [GF] §4.8",
  },
  {
    status: 400,
    text: exactly("The development provider only returns to this server's OAuth callback."),
    wire: "§1.7 [GO] §4.5",
  },
  {
    status: 400,
    text: exactly("The development provider has no tokens to refresh."),
    wire: "§1.7 [GO] §4.5",
  },
  // E-mail for apps (issue 16, routes/emails.ts and email-tsx.ts): Stack Auth's own plain-text answers.
  {
    status: 403,
    text: /^You can only (view|manage) your own notification preferences$/,
    wire: "§1.7 [Stack] e-mail",
  },
  { status: 404, text: exactly("Notification category not found"), wire: "§1.7 [Stack] e-mail" },
  {
    status: 400,
    text: exactly("Notification category not found with given name"),
    wire: "§1.7 [Stack] e-mail",
  },
  {
    status: 400,
    text: /^No (template found with given template_id|draft found with given draft_id)$/,
    wire: "§1.7 [Stack] e-mail",
  },
  { status: 400, text: /^(Invalid limit parameter|Limit cannot exceed \d+)$/, wire: "§1.7 [Stack] e-mail" },
  { status: 404, text: exactly("Email not found"), wire: "§1.7 [Stack] e-mail" },
  { status: 400, text: /^No (template|theme) found with given id$/, wire: "§1.7 [Stack] e-mail" },
  { status: 404, text: /^No (template|theme|draft) found with given id$/, wire: "§1.7 [Stack] e-mail" },
  {
    status: 400,
    text: exactly("Either template_id or template_tsx_source must be provided"),
    wire: "§1.7 [Stack] e-mail",
  },
  // Features that need an outside service (issue 16, src/unconfigured/): Stack's texts for a project without them.
  {
    status: 403,
    text: /^Clients can only (manage their own billing|access their own user or team (items|products)|cancel their own subscriptions|cancel user or team subscriptions they control|manage their own subscriptions|create purchase URLs for their own user or teams they have admin access to)\.$/,
    wire: "§1.7 [Stack] payments",
  },
  {
    status: 400,
    text: /^(Invalid cursor|Product not found\.|Stripe account ID is not set|No active subscription found with this ID for the given customer\.|Cannot specify both product_id and product_inline!|Must specify either product_id or product_inline!)$/,
    wire: "§1.7 [Stack] payments",
  },
  ...[
    PAYMENTS_NOT_SET_UP,
    STRIPE_UNAVAILABLE,
    AI_UNAVAILABLE,
    MANAGED_EMAIL_UNAVAILABLE,
    FEEDBACK_UNAVAILABLE,
  ].map((text) => ({ status: 400, text: exactly(text), wire: "§1.7 [Stack] not set up" })),
  {
    status: 400,
    text: exactly("Project must have an owner team to be transferred"),
    wire: "§1.7 [Stack] projects",
  },
  {
    status: 403,
    text: exactly(
      'Client can only list permissions for their own user. user_id must be either "me" or the ID of the current user',
    ),
    wire: "§1.7 [Stack] project-permissions",
  },
  {
    status: 403,
    text: /^Client can only (list|read|update|delete) OAuth providers for their own user\.$/,
    wire: "§1.7 [Stack] oauth-providers",
  },
  {
    status: 404,
    text: /^OAuth provider [^\s]+ for user [^\s]+ not found$/,
    wire: "§1.7 [Stack] oauth-providers",
  },
  {
    status: 404,
    text: /^OAuth provider [^\n]+ not found or not configured$/,
    wire: "§1.7 [Stack] oauth-providers",
  },
  {
    status: 400,
    text: /^The same provider type with (sign-in enabled|the same account ID) already exists for this user\.$/,
    wire: "§1.7 [Stack] oauth-providers",
  },
  {
    status: 400,
    text: /^(User|Team) API keys are not enabled for this project\.$/,
    wire: "§1.7 [Stack] user-api-keys, team-api-keys",
  },
  {
    status: 403,
    text: exactly("Client can only manage their own api keys"),
    wire: "§1.7 [Stack] user-api-keys",
  },
  {
    status: 400,
    text: /^(Invalid anon refresh token|The provided refresh token does not belong to an anonymous user|Invalid login code or the code has expired|refresh_token is required when mode is 'complete'|Invalid refresh token|No anonymous session associated with this code)$/,
    wire: "§1.7 [Stack] auth/cli",
  },
  {
    status: 400,
    text: exactly("Cross-domain auth handoff requires passing the current refresh token."),
    wire: "§1.7 [Stack] auth/oauth/cross-domain",
  },
  {
    status: 401,
    text: /^Cross-domain auth handoff refresh token (does not match the authenticated session|is not valid)\.$/,
    wire: "§1.7 [Stack] auth/oauth/cross-domain",
  },
  {
    status: 400,
    text: /^(Invalid config JSON|source is required for branch level config|Invalid config: [^\n]+)$/,
    wire: "§1.7 [Stack] internal/config",
  },
];

export type Finding = { status: number; reason: string; body: string };

/** The problem with an answer, or undefined when it is one the wire allows. */
export async function judgeAnswer(
  res: Response,
  options: { oauthErrors: boolean },
): Promise<Finding | undefined> {
  const masked = res.headers.get("x-stack-actual-status");
  const status = masked === null ? res.status : Number(masked);
  const body = await res.text();
  const finding = (reason: string): Finding => ({ status, reason, body: body.slice(0, 500) });
  if (status >= 500) return finding("server error");
  if (status < 400) return undefined;
  const code = res.headers.get("x-stack-known-error");
  const contentType = res.headers.get("content-type") ?? "";
  if (code !== null) {
    if (!(code in KnownErrors)) return finding(`unknown code ${code}`);
    if (res.headers.get("x-hexclave-known-error") !== code) return finding("header spellings differ");
    const parsed = JSON.parse(body) as { code?: string };
    if (parsed.code !== code) return finding("header and body codes differ");
    if (KnownErrors[code as keyof typeof KnownErrors].status !== status)
      return finding("status of another code");
    return undefined;
  }
  if (contentType.startsWith("text/plain")) {
    if (TEXT_ERRORS.some((e) => e.status === status && e.text.test(body))) return undefined;
    return finding("undocumented text error");
  }
  // WIRE.md §3.5: the token endpoint's OAuth protocol errors are plain JSON `{error, error_description}`.
  if (options.oauthErrors && contentType.startsWith("application/json") && status === 400) {
    const parsed = JSON.parse(body) as { error?: unknown; error_description?: unknown };
    if (typeof parsed.error === "string" && typeof parsed.error_description === "string") return undefined;
  }
  return finding("a 4xx that is not a known error");
}
