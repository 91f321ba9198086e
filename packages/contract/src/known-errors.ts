// The error catalogue of WIRE.md §2: one definition per code (message template, wire details;
// status and parent in known-error-table.ts).
// Nothing else in Gatehouse invents known-error strings; new failures that are not here are plain-text errors.
// UNSUPPORTED_ERROR and PASSKEY_WEBAUTHN_ERROR are built by the SDK and are deliberately absent.
import { OAUTH_ACCESS_TOKEN_NOT_AVAILABLE, USER_AUTHENTICATION_REQUIRED } from "./client-errors.ts";
import { defineWithStatus, type EntrySpec, type KnownErrorFactory } from "./known-error.ts";
import { statusOf } from "./known-error-status.ts";

export { OAUTH_ACCESS_TOKEN_NOT_AVAILABLE, USER_AUTHENTICATION_REQUIRED } from "./client-errors.ts";
export { knownErrorFromWire } from "./known-error.ts";
export { statusOf } from "./known-error-status.ts";
export { abstractParents, leafParents } from "./known-error-table.ts";

/**
 * Declares one catalogue entry as its own factory, its status from known-error-status.ts and its parent from
 * known-error-table.ts. One call per code (not one object built in a loop) so a bundler drops every entry an app does
 * not name: a client bundle ships none.
 */
export function define<A = undefined>(code: string, spec: EntrySpec<A>): KnownErrorFactory<A> {
  const status = statusOf(code);
  if (status === undefined) throw new Error(`Known error ${code} has no status in known-error-status.ts`);
  return defineWithStatus(code, status, spec);
}

const STACK_AUTH_DOCS = "https://docs.stack-auth.com/rest-api/overview#authentication";
const NOT_VERIFIED_SUFFIX =
  " but the email is not verified. Please login to your existing account with the method you used to sign up, and then verify your email to sign in with this login method.";

type AccessType = "client" | "server" | "admin";
/** `restricted_reason` on the wire; `type` is "anonymous", "email_not_verified" or "restricted_by_administrator". */
type RestrictedReason = { type: string };
type TokenExpiry = { expired_at_millis?: number };
type AccessTokenExpiry = TokenExpiry & { project_id?: string; user_id?: string; refresh_token_id?: string };
type TeamPermission = { team_id: string; user_id: string; permission_id: string };

/** The optional ` (The access token expired at …)` part of the two token-expiry messages. */
const expiredAtSuffix = (ms: number | undefined) =>
  ms === undefined ? "" : ` (The access token expired at ${new Date(ms).toISOString()}.)`;

/** Details made only of the keys whose value is known. */
const knownKeys = (details: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(details).filter(([, v]) => v !== undefined));

// The two token-expiry entries take `X | undefined`: they are called with no argument, or with the parts known.
export const BODY_PARSING_ERROR = /* @__PURE__ */ define<{ message: string }>("BODY_PARSING_ERROR", {
  message: (a) => a.message,
});
export const SCHEMA_ERROR = /* @__PURE__ */ define<{ message: string }>("SCHEMA_ERROR", {
  message: (a) => a.message,
  details: (a) => ({ message: a.message }),
});
export const ALL_OVERLOADS_FAILED = /* @__PURE__ */ define<{ overload_errors: unknown[] }>(
  "ALL_OVERLOADS_FAILED",
  {
    message: () => "This endpoint has multiple overloads, but they all failed to process the request.",
    details: (a) => ({ overload_errors: a.overload_errors }),
  },
);
export const PROJECT_KEY_WITHOUT_ACCESS_TYPE = /* @__PURE__ */ define("PROJECT_KEY_WITHOUT_ACCESS_TYPE", {
  message: () =>
    "Either an API key or an admin access token was provided, but the x-stack-access-type header is missing. Set it to 'client', 'server', or 'admin' as appropriate.",
});
export const INVALID_ACCESS_TYPE = /* @__PURE__ */ define<{ accessType: string }>("INVALID_ACCESS_TYPE", {
  message: (a) =>
    `The x-stack-access-type header must be 'client', 'server', or 'admin', but was '${a.accessType}'.`,
});
export const ACCESS_TYPE_WITHOUT_PROJECT_ID = /* @__PURE__ */ define<{ request_type: string }>(
  "ACCESS_TYPE_WITHOUT_PROJECT_ID",
  {
    message: (a) =>
      `The x-stack-access-type header was '${a.request_type}', but the x-stack-project-id header was not provided. For more information, see the docs on REST API authentication: ${STACK_AUTH_DOCS}`,
    details: (a) => ({ request_type: a.request_type }),
  },
);
export const ACCESS_TYPE_REQUIRED = /* @__PURE__ */ define("ACCESS_TYPE_REQUIRED", {
  message: () =>
    `You must specify an access level for this Stack project. Make sure project API keys are provided (eg. x-stack-publishable-client-key) and you set the x-stack-access-type header to 'client', 'server', or 'admin'. For more information, see the docs on REST API authentication: ${STACK_AUTH_DOCS}`,
});
export const INSUFFICIENT_ACCESS_TYPE = /* @__PURE__ */ define<{
  actual_access_type: AccessType;
  allowed_access_types: readonly AccessType[];
}>("INSUFFICIENT_ACCESS_TYPE", {
  message: (a) =>
    `The x-stack-access-type header must be ${a.allowed_access_types.map((t) => `'${t}'`).join(" or ")}, but was '${a.actual_access_type}'.`,
  details: (a) => ({
    actual_access_type: a.actual_access_type,
    allowed_access_types: [...a.allowed_access_types],
  }),
});
export const INVALID_PUBLISHABLE_CLIENT_KEY = /* @__PURE__ */ define<{ project_id: string }>(
  "INVALID_PUBLISHABLE_CLIENT_KEY",
  {
    message: (a) =>
      `The publishable key is not valid for the project "${a.project_id}". Does the project and/or the key exist?`,
    details: (a) => ({ project_id: a.project_id }),
  },
);
export const INVALID_SECRET_SERVER_KEY = /* @__PURE__ */ define<{ project_id: string }>(
  "INVALID_SECRET_SERVER_KEY",
  {
    message: (a) =>
      `The secret server key is not valid for the project "${a.project_id}". Does the project and/or the key exist?`,
    details: (a) => ({ project_id: a.project_id }),
  },
);
export const INVALID_SUPER_SECRET_ADMIN_KEY = /* @__PURE__ */ define<{ project_id: string }>(
  "INVALID_SUPER_SECRET_ADMIN_KEY",
  {
    message: (a) =>
      `The super secret admin key is not valid for the project "${a.project_id}". Does the project and/or the key exist?`,
    details: (a) => ({ project_id: a.project_id }),
  },
);
export const UNPARSABLE_ADMIN_ACCESS_TOKEN = /* @__PURE__ */ define("UNPARSABLE_ADMIN_ACCESS_TOKEN", {
  message: () => "Admin access token is not parsable.",
});
export const ADMIN_ACCESS_TOKEN_EXPIRED = /* @__PURE__ */ define<TokenExpiry | undefined>(
  "ADMIN_ACCESS_TOKEN_EXPIRED",
  {
    message: (a) =>
      `Admin access token has expired. Please refresh it and try again.${expiredAtSuffix(a?.expired_at_millis)}`,
    details: (a) => knownKeys({ expired_at_millis: a?.expired_at_millis }),
  },
);
export const INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN = /* @__PURE__ */ define(
  "INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN",
  {
    message: () => "Admin access tokens must be created on the internal project.",
  },
);
export const ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN = /* @__PURE__ */ define("ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN", {
  message: () => "Admin access token does not have the required permissions to access this project.",
});
export const CLIENT_AUTHENTICATION_REQUIRED = /* @__PURE__ */ define("CLIENT_AUTHENTICATION_REQUIRED", {
  message: () => "The publishable client key must be provided.",
});
export const PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT = /* @__PURE__ */ define<{ project_id: string }>(
  "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT",
  {
    message: () =>
      "Publishable client keys are required for this project. Create one in Project Keys, or disable this requirement there to allow keyless client access.",
    details: (a) => ({ project_id: a.project_id }),
  },
);
export const SERVER_AUTHENTICATION_REQUIRED = /* @__PURE__ */ define("SERVER_AUTHENTICATION_REQUIRED", {
  message: () => "The secret server key must be provided.",
});
export const CLIENT_OR_SERVER_AUTHENTICATION_REQUIRED = /* @__PURE__ */ define(
  "CLIENT_OR_SERVER_AUTHENTICATION_REQUIRED",
  {
    message: () => "Either the publishable client key or the secret server key must be provided.",
  },
);
export const CLIENT_OR_ADMIN_AUTHENTICATION_REQUIRED = /* @__PURE__ */ define(
  "CLIENT_OR_ADMIN_AUTHENTICATION_REQUIRED",
  {
    message: () => "Either the publishable client key or the super secret admin key must be provided.",
  },
);
export const CLIENT_OR_SERVER_OR_ADMIN_AUTHENTICATION_REQUIRED = /* @__PURE__ */ define(
  "CLIENT_OR_SERVER_OR_ADMIN_AUTHENTICATION_REQUIRED",
  {
    message: () =>
      "Either the publishable client key, the secret server key, or the super secret admin key must be provided.",
  },
);
export const ADMIN_AUTHENTICATION_REQUIRED = /* @__PURE__ */ define("ADMIN_AUTHENTICATION_REQUIRED", {
  message: () => "The super secret admin key must be provided.",
});
export const EXPECTED_INTERNAL_PROJECT = /* @__PURE__ */ define("EXPECTED_INTERNAL_PROJECT", {
  message: () => "The project ID is expected to be internal.",
});
export const UNPARSABLE_ACCESS_TOKEN = /* @__PURE__ */ define("UNPARSABLE_ACCESS_TOKEN", {
  message: () => "Access token is not parsable.",
});
export const ACCESS_TOKEN_EXPIRED = /* @__PURE__ */ define<AccessTokenExpiry | undefined>(
  "ACCESS_TOKEN_EXPIRED",
  {
    message: (a) =>
      `Access token has expired. Please refresh it and try again.${expiredAtSuffix(a?.expired_at_millis)}`,
    details: (a) =>
      knownKeys({
        expired_at_millis: a?.expired_at_millis,
        project_id: a?.project_id,
        user_id: a?.user_id,
        refresh_token_id: a?.refresh_token_id,
      }),
  },
);
export const INVALID_PROJECT_FOR_ACCESS_TOKEN = /* @__PURE__ */ define<{
  expected_project_id: string;
  actual_project_id: string;
}>("INVALID_PROJECT_FOR_ACCESS_TOKEN", {
  message: (a) =>
    `Access token not valid for this project. Expected project ID "${a.expected_project_id}", but the token is for project ID "${a.actual_project_id}".`,
  details: (a) => ({
    expected_project_id: a.expected_project_id,
    actual_project_id: a.actual_project_id,
  }),
});
export const REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED = /* @__PURE__ */ define(
  "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED",
  {
    message: () => "Refresh token not found for this project, or the session has expired/been revoked.",
  },
);
export const CANNOT_DELETE_CURRENT_SESSION = /* @__PURE__ */ define("CANNOT_DELETE_CURRENT_SESSION", {
  message: () => "Cannot delete the current session.",
});
export const PROVIDER_REJECTED = /* @__PURE__ */ define("PROVIDER_REJECTED", {
  message: () =>
    "The provider refused to refresh their token. This usually means that the provider used to authenticate the user no longer regards this session as valid, and the user must re-authenticate.",
});
export const USER_EMAIL_ALREADY_EXISTS = /* @__PURE__ */ define<{
  email: string;
  would_work_if_email_was_verified?: boolean;
}>("USER_EMAIL_ALREADY_EXISTS", {
  message: (a) =>
    `A user with email "${a.email}" already exists${a.would_work_if_email_was_verified ? NOT_VERIFIED_SUFFIX : "."}`,
  details: (a) => ({
    email: a.email,
    would_work_if_email_was_verified: a.would_work_if_email_was_verified ?? false,
  }),
});
export const EMAIL_NOT_VERIFIED = /* @__PURE__ */ define("EMAIL_NOT_VERIFIED", {
  message: () => "The email is not verified.",
});
export const CANNOT_GET_OWN_USER_WITHOUT_USER = /* @__PURE__ */ define("CANNOT_GET_OWN_USER_WITHOUT_USER", {
  message: () => "You have specified 'me' as a userId, but did not provide authentication for a user.",
});
export const USER_ID_DOES_NOT_EXIST = /* @__PURE__ */ define<{ user_id: string }>("USER_ID_DOES_NOT_EXIST", {
  message: (a) => `The given user with the ID ${a.user_id} does not exist.`,
  details: (a) => ({ user_id: a.user_id }),
});
export const USER_NOT_FOUND = /* @__PURE__ */ define("USER_NOT_FOUND", {
  message: () => "User not found.",
});
export const RESTRICTED_USER_NOT_ALLOWED = /* @__PURE__ */ define<{ restricted_reason: RestrictedReason }>(
  "RESTRICTED_USER_NOT_ALLOWED",
  {
    message: (a) =>
      `The user in the access token is in restricted state. Reason: ${a.restricted_reason.type}. Please pass the X-Stack-Allow-Restricted-User header if this is intended.`,
    details: (a) => ({ restricted_reason: { type: a.restricted_reason.type } }),
  },
);
export const ANONYMOUS_AUTHENTICATION_NOT_ALLOWED = /* @__PURE__ */ define(
  "ANONYMOUS_AUTHENTICATION_NOT_ALLOWED",
  {
    message: () =>
      "X-Stack-Access-Token is for an anonymous user, but anonymous users are not enabled. Set the X-Stack-Allow-Anonymous-User header of this request to 'true' to allow anonymous users.",
  },
);
export const ANONYMOUS_ACCOUNTS_NOT_ENABLED = /* @__PURE__ */ define("ANONYMOUS_ACCOUNTS_NOT_ENABLED", {
  message: () => "Anonymous accounts are not enabled for this project.",
});
export const PROJECT_NOT_FOUND = /* @__PURE__ */ define<{ project_id: string }>("PROJECT_NOT_FOUND", {
  message: (a) => `Project ${a.project_id} not found or is not accessible with the current user.`,
  details: (a) => ({ project_id: a.project_id }),
});
export const CURRENT_PROJECT_NOT_FOUND = /* @__PURE__ */ define<{ project_id: string }>(
  "CURRENT_PROJECT_NOT_FOUND",
  {
    message: (a) =>
      `The current project with ID ${a.project_id} was not found. Please check the value of the x-stack-project-id header.`,
    details: (a) => ({ project_id: a.project_id }),
  },
);
export const BRANCH_DOES_NOT_EXIST = /* @__PURE__ */ define<{ branch_id: string }>("BRANCH_DOES_NOT_EXIST", {
  message: (a) => `The branch with ID ${a.branch_id} does not exist.`,
  details: (a) => ({ branch_id: a.branch_id }),
});
export const SIGN_UP_NOT_ENABLED = /* @__PURE__ */ define("SIGN_UP_NOT_ENABLED", {
  message: () =>
    "Creation of new accounts is not enabled for this project. Please ask the project owner to enable it.",
});
export const PASSWORD_AUTHENTICATION_NOT_ENABLED = /* @__PURE__ */ define(
  "PASSWORD_AUTHENTICATION_NOT_ENABLED",
  {
    message: () => "Password authentication is not enabled for this project.",
  },
);
export const PASSKEY_AUTHENTICATION_NOT_ENABLED = /* @__PURE__ */ define(
  "PASSKEY_AUTHENTICATION_NOT_ENABLED",
  {
    message: () => "Passkey authentication is not enabled for this project.",
  },
);
export const EMAIL_PASSWORD_MISMATCH = /* @__PURE__ */ define("EMAIL_PASSWORD_MISMATCH", {
  message: () => "Wrong e-mail or password.",
});
export const REDIRECT_URL_NOT_WHITELISTED = /* @__PURE__ */ define("REDIRECT_URL_NOT_WHITELISTED", {
  message: () =>
    "Redirect URL not whitelisted. Did you forget to add this domain to the trusted domains list on the Stack Auth dashboard?",
});
export const PASSWORD_TOO_SHORT = /* @__PURE__ */ define<{ min_length: number }>("PASSWORD_TOO_SHORT", {
  message: (a) => `Password too short. Minimum length is ${a.min_length}.`,
  details: (a) => ({ min_length: a.min_length }),
});
// The one camelCase details key on the wire, kept as Stack Auth sends it.
export const PASSWORD_TOO_LONG = /* @__PURE__ */ define<{ maxLength: number }>("PASSWORD_TOO_LONG", {
  message: (a) => `Password too long. Maximum length is ${a.maxLength}.`,
  details: (a) => ({ maxLength: a.maxLength }),
});
// [GO] Gatehouse's own (issue 21): the password appears in breach data (a k-anonymity range service or the shipped
// list of the most common passwords), or its estimated strength is under the project's minimum.
export const PASSWORD_BREACHED = /* @__PURE__ */ define("PASSWORD_BREACHED", {
  message: () =>
    "This password has appeared in a data breach and can be guessed easily. Please choose a different password.",
});
export const PASSWORD_TOO_WEAK = /* @__PURE__ */ define<{ score: number; min_score: number }>(
  "PASSWORD_TOO_WEAK",
  {
    message: (a) =>
      `Password too weak (strength ${a.score} of 4, at least ${a.min_score} needed). Please choose a longer or less predictable password.`,
    details: (a) => ({ score: a.score, min_score: a.min_score }),
  },
);
// [GO] Bot protection (issue 21): the project requires a passing bot challenge (Cloudflare Turnstile) for this request.
export const BOT_CHALLENGE_REQUIRED = /* @__PURE__ */ define("BOT_CHALLENGE_REQUIRED", {
  message: () => "This request requires a bot challenge. Please complete the challenge and try again.",
});
export const BOT_CHALLENGE_FAILED = /* @__PURE__ */ define("BOT_CHALLENGE_FAILED", {
  message: () => "The bot challenge could not be verified. Please complete a new challenge and try again.",
});
export const USER_DOES_NOT_HAVE_PASSWORD = /* @__PURE__ */ define("USER_DOES_NOT_HAVE_PASSWORD", {
  message: () => "This user does not have password authentication enabled.",
});
export const PASSWORD_CONFIRMATION_MISMATCH = /* @__PURE__ */ define("PASSWORD_CONFIRMATION_MISMATCH", {
  message: () => "Passwords do not match.",
});
export const MULTI_FACTOR_AUTHENTICATION_REQUIRED = /* @__PURE__ */ define<{ attempt_code: string }>(
  "MULTI_FACTOR_AUTHENTICATION_REQUIRED",
  {
    message: () => "Multi-factor authentication is required for this user.",
    details: (a) => ({ attempt_code: a.attempt_code }),
  },
);
export const INVALID_TOTP_CODE = /* @__PURE__ */ define("INVALID_TOTP_CODE", {
  message: () => "The TOTP code is invalid. Please try again.",
});
export const VERIFICATION_CODE_NOT_FOUND = /* @__PURE__ */ define("VERIFICATION_CODE_NOT_FOUND", {
  message: () => "The verification code does not exist for this project.",
});
export const VERIFICATION_CODE_EXPIRED = /* @__PURE__ */ define("VERIFICATION_CODE_EXPIRED", {
  message: () => "The verification code has expired.",
});
export const VERIFICATION_CODE_ALREADY_USED = /* @__PURE__ */ define("VERIFICATION_CODE_ALREADY_USED", {
  message: () => "The verification link has already been used.",
});
export const VERIFICATION_CODE_MAX_ATTEMPTS_REACHED = /* @__PURE__ */ define(
  "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED",
  {
    message: () =>
      "The verification code nonce has reached the maximum number of attempts. This code is not valid anymore.",
  },
);
export const EMAIL_ALREADY_VERIFIED = /* @__PURE__ */ define("EMAIL_ALREADY_VERIFIED", {
  message: () => "The e-mail is already verified.",
});
export const EMAIL_NOT_ASSOCIATED_WITH_USER = /* @__PURE__ */ define("EMAIL_NOT_ASSOCIATED_WITH_USER", {
  message: () => "The e-mail is not associated with a user that could log in with that e-mail.",
});
export const EMAIL_IS_NOT_PRIMARY_EMAIL = /* @__PURE__ */ define<{
  email: string;
  primary_email: string | null;
}>("EMAIL_IS_NOT_PRIMARY_EMAIL", {
  message: (a) => `The given e-mail (${a.email}) must equal the user's primary e-mail (${a.primary_email}).`,
  details: (a) => ({ email: a.email, primary_email: a.primary_email }),
});
export const PASSKEY_REGISTRATION_FAILED = /* @__PURE__ */ define<{ message: string }>(
  "PASSKEY_REGISTRATION_FAILED",
  {
    message: (a) => a.message,
    details: (a) => ({ message: a.message }),
  },
);
export const PASSKEY_AUTHENTICATION_FAILED = /* @__PURE__ */ define<{ message: string }>(
  "PASSKEY_AUTHENTICATION_FAILED",
  {
    message: (a) => a.message,
    details: (a) => ({ message: a.message }),
  },
);
export const PERMISSION_NOT_FOUND = /* @__PURE__ */ define<{ permission_id: string }>(
  "PERMISSION_NOT_FOUND",
  {
    message: (a) => `Permission "${a.permission_id}" not found. Make sure you created it on the dashboard.`,
    details: (a) => ({ permission_id: a.permission_id }),
  },
);
export const CONTAINED_PERMISSION_NOT_FOUND = /* @__PURE__ */ define<{ permission_id: string }>(
  "CONTAINED_PERMISSION_NOT_FOUND",
  {
    message: (a) =>
      `Contained permission with ID "${a.permission_id}" not found. Make sure you created it on the dashboard.`,
    details: (a) => ({ permission_id: a.permission_id }),
  },
);
export const PERMISSION_ID_ALREADY_EXISTS = /* @__PURE__ */ define<{ permission_id: string }>(
  "PERMISSION_ID_ALREADY_EXISTS",
  {
    message: (a) => `Permission with ID "${a.permission_id}" already exists. Choose a different ID.`,
    details: (a) => ({ permission_id: a.permission_id }),
  },
);
export const WRONG_PERMISSION_SCOPE = /* @__PURE__ */ define<{
  permission_id: string;
  expected_scope: string;
  actual_scope: string | null;
}>("WRONG_PERMISSION_SCOPE", {
  message: (a) =>
    `Permission ${JSON.stringify(a.permission_id)} not found. (It was found for a different scope ${JSON.stringify(a.actual_scope)}, but scope ${JSON.stringify(a.expected_scope)} was expected.)`,
  details: (a) => ({
    permission_id: a.permission_id,
    expected_scope: a.expected_scope,
    actual_scope: a.actual_scope,
  }),
});
export const TEAM_NOT_FOUND = /* @__PURE__ */ define<{ team_id: string }>("TEAM_NOT_FOUND", {
  message: (a) => `Team ${a.team_id} not found.`,
  details: (a) => ({ team_id: a.team_id }),
});
export const TEAM_MEMBERSHIP_NOT_FOUND = /* @__PURE__ */ define<{ team_id: string; user_id: string }>(
  "TEAM_MEMBERSHIP_NOT_FOUND",
  {
    message: (a) => `User ${a.user_id} is not found in team ${a.team_id}.`,
    details: (a) => ({ team_id: a.team_id, user_id: a.user_id }),
  },
);
export const TEAM_MEMBERSHIP_ALREADY_EXISTS = /* @__PURE__ */ define("TEAM_MEMBERSHIP_ALREADY_EXISTS", {
  message: () => "Team membership already exists.",
});
export const TEAM_PERMISSION_REQUIRED = /* @__PURE__ */ define<TeamPermission>("TEAM_PERMISSION_REQUIRED", {
  message: (a) => `User ${a.user_id} does not have permission ${a.permission_id} in team ${a.team_id}.`,
  details: (a) => ({ team_id: a.team_id, user_id: a.user_id, permission_id: a.permission_id }),
});
export const TEAM_PERMISSION_NOT_FOUND = /* @__PURE__ */ define<TeamPermission>("TEAM_PERMISSION_NOT_FOUND", {
  message: (a) => `User ${a.user_id} does not have permission ${a.permission_id} in team ${a.team_id}.`,
  details: (a) => ({ team_id: a.team_id, user_id: a.user_id, permission_id: a.permission_id }),
});
export const TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED = /* @__PURE__ */ define<{
  restricted_reason: RestrictedReason;
}>("TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED", {
  message: (a) =>
    `Restricted users cannot accept team invitations. Reason: ${a.restricted_reason.type}. Please complete the onboarding process before accepting team invitations.`,
  details: (a) => ({ restricted_reason: { type: a.restricted_reason.type } }),
});
export const EMAIL_TEMPLATE_ALREADY_EXISTS = /* @__PURE__ */ define("EMAIL_TEMPLATE_ALREADY_EXISTS", {
  message: () => "Email template already exists.",
});
export const EMAIL_RENDERING_ERROR = /* @__PURE__ */ define<{ error: string }>("EMAIL_RENDERING_ERROR", {
  message: (a) => `Failed to render email with theme: ${a.error}`,
  details: (a) => ({ error: a.error }),
});
export const EMAIL_NOT_EDITABLE = /* @__PURE__ */ define<{ email_id: string; status: string }>(
  "EMAIL_NOT_EDITABLE",
  {
    message: (a) =>
      `Email with ID "${a.email_id}" cannot be edited because it is in status "${a.status}". Only emails in PAUSED, PREPARING, RENDERING, RENDER_ERROR, SCHEDULED, QUEUED, or SERVER_ERROR status can be edited.`,
    details: (a) => ({ email_id: a.email_id, status: a.status }),
  },
);
export const OAUTH_CONNECTION_NOT_CONNECTED_TO_USER = /* @__PURE__ */ define(
  "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER",
  {
    message: () => "The OAuth connection is not connected to any user.",
  },
);
export const OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER = /* @__PURE__ */ define(
  "OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER",
  {
    message: () => "The OAuth connection is already connected to another user.",
  },
);
export const OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE = /* @__PURE__ */ define(
  "OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE",
  {
    message: () => "The OAuth connection does not have the required scope.",
  },
);
export const OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS = /* @__PURE__ */ define(
  "OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS",
  {
    message: () =>
      "Extra scopes are not available with shared OAuth keys. Please add your own OAuth keys on the Stack dashboard to use extra scopes.",
  },
);
export const OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS = /* @__PURE__ */ define(
  "OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS",
  {
    message: () =>
      "Access tokens are not available with shared OAuth keys. Please add your own OAuth keys on the Stack dashboard to use access tokens.",
  },
);
// The client id may be missing from the request; the key is then sent as null.
export const INVALID_OAUTH_CLIENT_ID_OR_SECRET = /* @__PURE__ */ define<{ client_id?: string | null }>(
  "INVALID_OAUTH_CLIENT_ID_OR_SECRET",
  {
    message: () =>
      "The OAuth client ID or secret is invalid. The client ID must be equal to the project ID (potentially with a hash and a branch ID), and the client secret must be a publishable client key.",
    details: (a) => ({ client_id: a.client_id ?? null }),
  },
);
export const INVALID_SCOPE = /* @__PURE__ */ define<{ scope: string }>("INVALID_SCOPE", {
  message: (a) => `The scope "${a.scope}" is not a valid OAuth scope for Stack.`,
});
export const USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION = /* @__PURE__ */ define(
  "USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION",
  {
    message: () =>
      "The user is already connected to another OAuth account. Did you maybe selected the wrong account?",
  },
);
export const OUTER_OAUTH_TIMEOUT = /* @__PURE__ */ define("OUTER_OAUTH_TIMEOUT", {
  message: () => "The OAuth flow has timed out. Please sign in again.",
});
export const OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED = /* @__PURE__ */ define(
  "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED",
  {
    message: () => "The OAuth provider is not found or not enabled.",
  },
);
export const OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN = /* @__PURE__ */ define(
  "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN",
  {
    message: () => "A provider with the same account ID is already used for signing in.",
  },
);
export const INVALID_SHARED_OAUTH_PROVIDER_ID = /* @__PURE__ */ define<{ provider_id: string }>(
  "INVALID_SHARED_OAUTH_PROVIDER_ID",
  {
    message: (a) => `The shared OAuth provider with ID ${a.provider_id} is not valid.`,
    details: (a) => ({ provider_id: a.provider_id }),
  },
);
export const INVALID_STANDARD_OAUTH_PROVIDER_ID = /* @__PURE__ */ define<{ provider_id: string }>(
  "INVALID_STANDARD_OAUTH_PROVIDER_ID",
  {
    message: (a) => `The standard OAuth provider with ID ${a.provider_id} is not valid.`,
    details: (a) => ({ provider_id: a.provider_id }),
  },
);
export const INVALID_AUTHORIZATION_CODE = /* @__PURE__ */ define("INVALID_AUTHORIZATION_CODE", {
  message: () => "The given authorization code is invalid.",
});
export const OAUTH_PROVIDER_ACCESS_DENIED = /* @__PURE__ */ define("OAUTH_PROVIDER_ACCESS_DENIED", {
  message: () => "The OAuth provider denied access to the user.",
});
export const OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE = /* @__PURE__ */ define(
  "OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE",
  {
    message: () => "The OAuth provider is temporarily unavailable. Please try signing in again.",
  },
);
// Gatehouse's own (not in Stack's catalogue): the database cannot be reached (a restart, a failover) or did not
// answer within the statement timeout. Retrying later is the right move, so 503 and not a 500.
export const DATABASE_UNAVAILABLE = /* @__PURE__ */ define("DATABASE_UNAVAILABLE", {
  message: () => "The database is temporarily unavailable. Please try again in a few seconds.",
});
// Gatehouse's own: REDIS_URL names the Redis that counts the rate limits, and it cannot be reached (down, restarting,
// or not answering within the command timeout). The limits fail closed, so the request is refused, retryably.
export const REDIS_UNAVAILABLE = /* @__PURE__ */ define("REDIS_UNAVAILABLE", {
  message: () => "The rate-limit store is temporarily unavailable. Please try again in a few seconds.",
});
// The value really is wrapped in `"(` and `)"` on the wire (Stack Auth's text).
export const CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE = /* @__PURE__ */ define<{
  type: "email";
  contact_channel_value: string;
  would_work_if_email_was_verified?: boolean;
}>("CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE", {
  message: (a) =>
    `This ${a.type} "(${a.contact_channel_value})" is already used for authentication by another account${a.would_work_if_email_was_verified ? NOT_VERIFIED_SUFFIX : "."}`,
  details: (a) => ({
    type: a.type,
    contact_channel_value: a.contact_channel_value,
    would_work_if_email_was_verified: a.would_work_if_email_was_verified ?? false,
  }),
});
export const API_KEY_NOT_FOUND = /* @__PURE__ */ define("API_KEY_NOT_FOUND", {
  message: () => "API key not found.",
});
export const INVALID_POLLING_CODE = /* @__PURE__ */ define("INVALID_POLLING_CODE", {
  message: () => "The polling code is invalid or does not exist.",
});
export const API_KEY_EXPIRED = /* @__PURE__ */ define("API_KEY_EXPIRED", {
  message: () => "API key has expired.",
});
export const API_KEY_REVOKED = /* @__PURE__ */ define("API_KEY_REVOKED", {
  message: () => "API key has been revoked.",
});
export const WRONG_API_KEY_TYPE = /* @__PURE__ */ define<{ expected_type: string; actual_type: string }>(
  "WRONG_API_KEY_TYPE",
  {
    message: (a) =>
      `This endpoint is for ${a.expected_type} API keys, but a ${a.actual_type} API key was provided.`,
    details: (a) => ({ expected_type: a.expected_type, actual_type: a.actual_type }),
  },
);
/** Stack's code for a session-replay (or other stored item) id that does not exist. */
export const ITEM_NOT_FOUND = /* @__PURE__ */ define<{ item_id: string }>("ITEM_NOT_FOUND", {
  message: (a) => `Item with ID "${a.item_id}" not found.`,
  details: (a) => ({ item_id: a.item_id }),
});
/** Stack answers it where the analytics app (session replays) is not set up. */
export const ANALYTICS_NOT_ENABLED = /* @__PURE__ */ define("ANALYTICS_NOT_ENABLED", {
  message: () => "Analytics is not enabled for this project.",
});
// Payments and the other features of Stack that need an outside service (issue 16), as Stack sends them.
export const PRODUCT_DOES_NOT_EXIST = /* @__PURE__ */ define<{
  product_id: string;
  context: "server_only" | "item_exists" | null;
}>("PRODUCT_DOES_NOT_EXIST", {
  message: (a) =>
    `Product with ID ${JSON.stringify(a.product_id)} ${
      a.context === "server_only"
        ? "is marked as server-only and cannot be accessed client side."
        : a.context === "item_exists"
          ? "does not exist, but an item with this ID exists."
          : "does not exist."
    }`,
  details: (a) => ({ product_id: a.product_id, context: a.context }),
});
export const STRIPE_ACCOUNT_INFO_NOT_FOUND = /* @__PURE__ */ define("STRIPE_ACCOUNT_INFO_NOT_FOUND", {
  message: () => "Stripe account information not found. Please make sure the user has onboarded with Stripe.",
});
export const SUBSCRIPTION_INVOICE_NOT_FOUND = /* @__PURE__ */ define<{ subscription_invoice_id: string }>(
  "SUBSCRIPTION_INVOICE_NOT_FOUND",
  {
    message: (a) =>
      `Subscription invoice with ID ${JSON.stringify(a.subscription_invoice_id)} does not exist.`,
    details: (a) => ({ subscription_invoice_id: a.subscription_invoice_id }),
  },
);
export const ONE_TIME_PURCHASE_NOT_FOUND = /* @__PURE__ */ define<{ one_time_purchase_id: string }>(
  "ONE_TIME_PURCHASE_NOT_FOUND",
  {
    message: (a) => `One-time purchase with ID ${JSON.stringify(a.one_time_purchase_id)} does not exist.`,
    details: (a) => ({ one_time_purchase_id: a.one_time_purchase_id }),
  },
);
export const DATA_VAULT_STORE_DOES_NOT_EXIST = /* @__PURE__ */ define<{ store_id: string }>(
  "DATA_VAULT_STORE_DOES_NOT_EXIST",
  {
    message: (a) => `Data vault store with ID ${a.store_id} does not exist.`,
    details: (a) => ({ store_id: a.store_id }),
  },
);
export const DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST = /* @__PURE__ */ define<{
  store_id: string;
  hashed_key: string;
}>("DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST", {
  message: (a) => `Data vault store with ID ${a.store_id} does not contain a key with hash ${a.hashed_key}.`,
  details: (a) => ({ store_id: a.store_id, hashed_key: a.hashed_key }),
});
export const EMAIL_CAPACITY_BOOST_ALREADY_ACTIVE = /* @__PURE__ */ define<{ expires_at: string }>(
  "EMAIL_CAPACITY_BOOST_ALREADY_ACTIVE",
  {
    message: (a) => `Email capacity boost is already active until ${a.expires_at}.`,
    details: (a) => ({ expires_at: a.expires_at }),
  },
);
export const TEMPLATE_SOURCE_REWRITE_ERROR = /* @__PURE__ */ define<{ error: string }>(
  "TEMPLATE_SOURCE_REWRITE_ERROR",
  {
    message: (a) => `Failed to rewrite template source: ${a.error}`,
    details: (a) => ({ error: a.error }),
  },
);

/** Every factory by its code: what the server throws from, and what apps match codes against. */
// [GO] Enterprise single sign-on (apps/server/src/sso/).
export const SSO_CONNECTION_NOT_FOUND = /* @__PURE__ */ define<{ connection_id: string }>(
  "SSO_CONNECTION_NOT_FOUND",
  {
    message: (a) => `SSO connection ${a.connection_id} not found, or it is disabled.`,
    details: (a) => ({ connection_id: a.connection_id }),
  },
);
export const SSO_IDENTITY_PROVIDER_ERROR = /* @__PURE__ */ define<{ connection_id: string; reason: string }>(
  "SSO_IDENTITY_PROVIDER_ERROR",
  {
    message: (a) =>
      `The identity provider's answer for SSO connection ${a.connection_id} was refused: ${a.reason} ` +
      "Check the connection's settings at the identity provider and in Gatehouse, then try signing in again.",
    details: (a) => ({ connection_id: a.connection_id, reason: a.reason }),
  },
);
export const SSO_DOMAIN_NOT_FOUND = /* @__PURE__ */ define<{ domain: string }>("SSO_DOMAIN_NOT_FOUND", {
  message: (a) => `No verified SSO connection signs in addresses of ${a.domain}.`,
  details: (a) => ({ domain: a.domain }),
});
export const SSO_DOMAIN_VERIFICATION_FAILED = /* @__PURE__ */ define<{ domain: string; reason: string }>(
  "SSO_DOMAIN_VERIFICATION_FAILED",
  {
    message: (a) => `The domain ${a.domain} could not be verified: ${a.reason}`,
    details: (a) => ({ domain: a.domain, reason: a.reason }),
  },
);
export const SSO_REQUIRED = /* @__PURE__ */ define<{ domain: string }>("SSO_REQUIRED", {
  message: (a) =>
    `Addresses of ${a.domain} must sign in with their organization's single sign-on ("Continue with SSO").`,
  details: (a) => ({ domain: a.domain }),
});
export const SSO_ACCOUNT_BELONGS_TO_ANOTHER_ORGANIZATION = /* @__PURE__ */ define<{ email: string }>(
  "SSO_ACCOUNT_BELONGS_TO_ANOTHER_ORGANIZATION",
  {
    message: (a) =>
      `The address ${a.email} belongs to an account this SSO connection may not sign in to. Ask your administrator.`,
    details: (a) => ({ email: a.email }),
  },
);
// [GO] Gatehouse as an OpenID Provider (apps/server/src/oidc-provider/).
export const OIDC_CLIENT_NOT_FOUND = /* @__PURE__ */ define<{ client_id: string }>("OIDC_CLIENT_NOT_FOUND", {
  message: (a) => `OAuth client ${a.client_id} not found.`,
  details: (a) => ({ client_id: a.client_id }),
});
export const OIDC_INTERACTION_NOT_FOUND = /* @__PURE__ */ define<{ interaction_id: string }>(
  "OIDC_INTERACTION_NOT_FOUND",
  {
    message: (a) =>
      `The sign-in request ${a.interaction_id} was not found or has expired. Start signing in from the app again.`,
    details: (a) => ({ interaction_id: a.interaction_id }),
  },
);
export const BACKUP_NOT_AVAILABLE = /* @__PURE__ */ define<{ reason: string }>("BACKUP_NOT_AVAILABLE", {
  // [GO] `GET /internal/backup` (issue 23): the running server dumps its embedded database; it cannot dump PostgreSQL.
  message: (a) => `The server cannot make this backup: ${a.reason}`,
  details: (a) => ({ reason: a.reason }),
});
// [GO] Import jobs (issue 23, POST /internal/imports/jobs): an export file uploaded for a background import.
export const IMPORT_FILE_INVALID = /* @__PURE__ */ define<{ line: number; reason: string }>(
  "IMPORT_FILE_INVALID",
  {
    message: (a) => `The export file cannot be read at line ${a.line}: ${a.reason}. Nothing was imported.`,
    details: (a) => ({ line: a.line, reason: a.reason }),
  },
);
export const IMPORT_FILE_TOO_LARGE = /* @__PURE__ */ define<{ max_bytes: number }>("IMPORT_FILE_TOO_LARGE", {
  message: (a) =>
    `The export file is larger than ${a.max_bytes} bytes; import it with \`gatehouse import\` instead.`,
  details: (a) => ({ max_bytes: a.max_bytes }),
});
export const IMPORT_JOB_NOT_FOUND = /* @__PURE__ */ define<{ job_id: string }>("IMPORT_JOB_NOT_FOUND", {
  message: (a) => `Import job ${a.job_id} not found.`,
  details: (a) => ({ job_id: a.job_id }),
});
export const OIDC_FRESH_SIGN_IN_REQUIRED = /* @__PURE__ */ define("OIDC_FRESH_SIGN_IN_REQUIRED", {
  message: () =>
    "The app asks for a fresh sign-in (prompt=login or max_age): sign out, sign in again, then answer the request.",
});

// [GO] SCIM 2.0 provisioning (apps/server/src/sso/scim/): answered in RFC 7644's error shape, with a scimType.
export const SCIM_TOKEN_INVALID = /* @__PURE__ */ define<undefined>("SCIM_TOKEN_INVALID", {
  message: () =>
    "The SCIM bearer token is missing, unknown or revoked. Create a new token in the team's SSO settings.",
});
export const SCIM_TOKEN_NOT_FOUND = /* @__PURE__ */ define<{ token_id: string }>("SCIM_TOKEN_NOT_FOUND", {
  message: (a) => `SCIM token ${a.token_id} not found.`,
  details: (a) => ({ token_id: a.token_id }),
});
export const SCIM_RESOURCE_NOT_FOUND = /* @__PURE__ */ define<{ resource: string; id: string }>(
  "SCIM_RESOURCE_NOT_FOUND",
  {
    message: (a) => `${a.resource} ${a.id} not found.`,
    details: (a) => ({ resource: a.resource, id: a.id }),
  },
);
export const SCIM_UNIQUENESS = /* @__PURE__ */ define<{ attribute: string; value: string }>(
  "SCIM_UNIQUENESS",
  {
    message: (a) => `Another resource already has ${a.attribute} "${a.value}".`,
    details: (a) => ({ attribute: a.attribute, value: a.value }),
  },
);
export const SCIM_INVALID_FILTER = /* @__PURE__ */ define<{ reason: string }>("SCIM_INVALID_FILTER", {
  message: (a) => `The filter is not supported: ${a.reason}`,
  details: (a) => ({ reason: a.reason }),
});
export const SCIM_INVALID_PATH = /* @__PURE__ */ define<{ path: string }>("SCIM_INVALID_PATH", {
  message: (a) => `The PATCH path "${a.path}" is not supported.`,
  details: (a) => ({ path: a.path }),
});
export const SCIM_INVALID_VALUE = /* @__PURE__ */ define<{ reason: string }>("SCIM_INVALID_VALUE", {
  message: (a) => `The request is not a valid SCIM resource or operation: ${a.reason}`,
  details: (a) => ({ reason: a.reason }),
});
export const SCIM_USER_DEACTIVATED = /* @__PURE__ */ define<{ team_id: string }>("SCIM_USER_DEACTIVATED", {
  message: () =>
    "Your organization's identity provider has deactivated this account. Ask your administrator.",
  details: (a) => ({ team_id: a.team_id }),
});

export const KnownErrors = {
  BODY_PARSING_ERROR,
  SCHEMA_ERROR,
  ALL_OVERLOADS_FAILED,
  PROJECT_KEY_WITHOUT_ACCESS_TYPE,
  INVALID_ACCESS_TYPE,
  ACCESS_TYPE_WITHOUT_PROJECT_ID,
  ACCESS_TYPE_REQUIRED,
  INSUFFICIENT_ACCESS_TYPE,
  INVALID_PUBLISHABLE_CLIENT_KEY,
  INVALID_SECRET_SERVER_KEY,
  INVALID_SUPER_SECRET_ADMIN_KEY,
  UNPARSABLE_ADMIN_ACCESS_TOKEN,
  ADMIN_ACCESS_TOKEN_EXPIRED,
  INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN,
  ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN,
  CLIENT_AUTHENTICATION_REQUIRED,
  PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT,
  SERVER_AUTHENTICATION_REQUIRED,
  CLIENT_OR_SERVER_AUTHENTICATION_REQUIRED,
  CLIENT_OR_ADMIN_AUTHENTICATION_REQUIRED,
  CLIENT_OR_SERVER_OR_ADMIN_AUTHENTICATION_REQUIRED,
  ADMIN_AUTHENTICATION_REQUIRED,
  EXPECTED_INTERNAL_PROJECT,
  UNPARSABLE_ACCESS_TOKEN,
  ACCESS_TOKEN_EXPIRED,
  INVALID_PROJECT_FOR_ACCESS_TOKEN,
  REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED,
  CANNOT_DELETE_CURRENT_SESSION,
  PROVIDER_REJECTED,
  USER_EMAIL_ALREADY_EXISTS,
  EMAIL_NOT_VERIFIED,
  CANNOT_GET_OWN_USER_WITHOUT_USER,
  USER_ID_DOES_NOT_EXIST,
  USER_NOT_FOUND,
  RESTRICTED_USER_NOT_ALLOWED,
  USER_AUTHENTICATION_REQUIRED,
  ANONYMOUS_AUTHENTICATION_NOT_ALLOWED,
  ANONYMOUS_ACCOUNTS_NOT_ENABLED,
  PROJECT_NOT_FOUND,
  CURRENT_PROJECT_NOT_FOUND,
  BRANCH_DOES_NOT_EXIST,
  SIGN_UP_NOT_ENABLED,
  PASSWORD_AUTHENTICATION_NOT_ENABLED,
  PASSKEY_AUTHENTICATION_NOT_ENABLED,
  EMAIL_PASSWORD_MISMATCH,
  REDIRECT_URL_NOT_WHITELISTED,
  PASSWORD_TOO_SHORT,
  PASSWORD_TOO_LONG,
  PASSWORD_BREACHED,
  PASSWORD_TOO_WEAK,
  BOT_CHALLENGE_REQUIRED,
  BOT_CHALLENGE_FAILED,
  USER_DOES_NOT_HAVE_PASSWORD,
  PASSWORD_CONFIRMATION_MISMATCH,
  MULTI_FACTOR_AUTHENTICATION_REQUIRED,
  INVALID_TOTP_CODE,
  VERIFICATION_CODE_NOT_FOUND,
  VERIFICATION_CODE_EXPIRED,
  VERIFICATION_CODE_ALREADY_USED,
  VERIFICATION_CODE_MAX_ATTEMPTS_REACHED,
  EMAIL_ALREADY_VERIFIED,
  EMAIL_NOT_ASSOCIATED_WITH_USER,
  EMAIL_IS_NOT_PRIMARY_EMAIL,
  PASSKEY_REGISTRATION_FAILED,
  PASSKEY_AUTHENTICATION_FAILED,
  PERMISSION_NOT_FOUND,
  CONTAINED_PERMISSION_NOT_FOUND,
  PERMISSION_ID_ALREADY_EXISTS,
  WRONG_PERMISSION_SCOPE,
  TEAM_NOT_FOUND,
  TEAM_MEMBERSHIP_NOT_FOUND,
  TEAM_MEMBERSHIP_ALREADY_EXISTS,
  TEAM_PERMISSION_REQUIRED,
  TEAM_PERMISSION_NOT_FOUND,
  TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED,
  EMAIL_TEMPLATE_ALREADY_EXISTS,
  EMAIL_RENDERING_ERROR,
  EMAIL_NOT_EDITABLE,
  OAUTH_CONNECTION_NOT_CONNECTED_TO_USER,
  OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER,
  OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE,
  OAUTH_ACCESS_TOKEN_NOT_AVAILABLE,
  OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS,
  OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS,
  INVALID_OAUTH_CLIENT_ID_OR_SECRET,
  INVALID_SCOPE,
  USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION,
  OUTER_OAUTH_TIMEOUT,
  OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED,
  OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN,
  INVALID_SHARED_OAUTH_PROVIDER_ID,
  INVALID_STANDARD_OAUTH_PROVIDER_ID,
  INVALID_AUTHORIZATION_CODE,
  OAUTH_PROVIDER_ACCESS_DENIED,
  OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE,
  DATABASE_UNAVAILABLE,
  REDIS_UNAVAILABLE,
  CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE,
  API_KEY_NOT_FOUND,
  INVALID_POLLING_CODE,
  API_KEY_EXPIRED,
  API_KEY_REVOKED,
  WRONG_API_KEY_TYPE,
  ITEM_NOT_FOUND,
  ANALYTICS_NOT_ENABLED,
  PRODUCT_DOES_NOT_EXIST,
  STRIPE_ACCOUNT_INFO_NOT_FOUND,
  SUBSCRIPTION_INVOICE_NOT_FOUND,
  ONE_TIME_PURCHASE_NOT_FOUND,
  DATA_VAULT_STORE_DOES_NOT_EXIST,
  DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST,
  EMAIL_CAPACITY_BOOST_ALREADY_ACTIVE,
  TEMPLATE_SOURCE_REWRITE_ERROR,
  SSO_CONNECTION_NOT_FOUND,
  SSO_IDENTITY_PROVIDER_ERROR,
  SSO_DOMAIN_NOT_FOUND,
  SSO_DOMAIN_VERIFICATION_FAILED,
  SSO_REQUIRED,
  SSO_ACCOUNT_BELONGS_TO_ANOTHER_ORGANIZATION,
  SCIM_TOKEN_INVALID,
  SCIM_TOKEN_NOT_FOUND,
  SCIM_RESOURCE_NOT_FOUND,
  SCIM_UNIQUENESS,
  SCIM_INVALID_FILTER,
  SCIM_INVALID_PATH,
  SCIM_INVALID_VALUE,
  SCIM_USER_DEACTIVATED,
  OIDC_CLIENT_NOT_FOUND,
  OIDC_INTERACTION_NOT_FOUND,
  OIDC_FRESH_SIGN_IN_REQUIRED,
  BACKUP_NOT_AVAILABLE,
  IMPORT_FILE_INVALID,
  IMPORT_FILE_TOO_LARGE,
  IMPORT_JOB_NOT_FOUND,
};

export type KnownErrorCode = keyof typeof KnownErrors;
