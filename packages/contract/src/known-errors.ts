// The error catalogue of WIRE.md §2: one definition per code (status, parent, message template, wire details).
// Nothing else in Gatehouse invents known-error strings; new failures that are not here are plain-text errors.
// UNSUPPORTED_ERROR and PASSKEY_WEBAUTHN_ERROR are built by the SDK and are deliberately absent.
import { buildCatalogue, entry, KnownError, type KnownErrorDetails } from "./known-error.ts";

/** Abstract parent classes (never sent) mapped to their own parent. */
export const abstractParents: Record<string, string | undefined> = {
  PROJECT_AUTHENTICATION_ERROR: undefined,
  INVALID_PROJECT_AUTHENTICATION: "PROJECT_AUTHENTICATION_ERROR",
  INVALID_ADMIN_ACCESS_TOKEN: "INVALID_PROJECT_AUTHENTICATION",
  PROJECT_AUTHENTICATION_REQUIRED: "PROJECT_AUTHENTICATION_ERROR",
  SESSION_AUTHENTICATION_ERROR: undefined,
  INVALID_SESSION_AUTHENTICATION: "SESSION_AUTHENTICATION_ERROR",
  INVALID_ACCESS_TOKEN: "INVALID_SESSION_AUTHENTICATION",
  REFRESH_TOKEN_ERROR: undefined,
  PASSWORD_REQUIREMENTS_NOT_MET: undefined,
  VERIFICATION_ERROR: undefined,
  API_KEY_NOT_VALID: undefined,
};

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
export const KnownErrors = buildCatalogue(
  {
    BODY_PARSING_ERROR: entry<{ message: string }>({ status: 400, message: (a) => a.message }),
    SCHEMA_ERROR: entry<{ message: string }>({
      status: 400,
      message: (a) => a.message,
      details: (a) => ({ message: a.message }),
    }),
    ALL_OVERLOADS_FAILED: entry<{ overload_errors: unknown[] }>({
      status: 400,
      message: () => "This endpoint has multiple overloads, but they all failed to process the request.",
      details: (a) => ({ overload_errors: a.overload_errors }),
    }),
    PROJECT_KEY_WITHOUT_ACCESS_TYPE: entry({
      status: 400,
      parent: "INVALID_PROJECT_AUTHENTICATION",
      message: () =>
        "Either an API key or an admin access token was provided, but the x-stack-access-type header is missing. Set it to 'client', 'server', or 'admin' as appropriate.",
    }),
    INVALID_ACCESS_TYPE: entry<{ accessType: string }>({
      status: 400,
      parent: "INVALID_PROJECT_AUTHENTICATION",
      message: (a) =>
        `The x-stack-access-type header must be 'client', 'server', or 'admin', but was '${a.accessType}'.`,
    }),
    ACCESS_TYPE_WITHOUT_PROJECT_ID: entry<{ request_type: string }>({
      status: 400,
      parent: "INVALID_PROJECT_AUTHENTICATION",
      message: (a) =>
        `The x-stack-access-type header was '${a.request_type}', but the x-stack-project-id header was not provided. For more information, see the docs on REST API authentication: ${STACK_AUTH_DOCS}`,
      details: (a) => ({ request_type: a.request_type }),
    }),
    ACCESS_TYPE_REQUIRED: entry({
      status: 400,
      parent: "INVALID_PROJECT_AUTHENTICATION",
      message: () =>
        `You must specify an access level for this Stack project. Make sure project API keys are provided (eg. x-stack-publishable-client-key) and you set the x-stack-access-type header to 'client', 'server', or 'admin'. For more information, see the docs on REST API authentication: ${STACK_AUTH_DOCS}`,
    }),
    INSUFFICIENT_ACCESS_TYPE: entry<{
      actual_access_type: AccessType;
      allowed_access_types: readonly AccessType[];
    }>({
      status: 401,
      parent: "INVALID_PROJECT_AUTHENTICATION",
      message: (a) =>
        `The x-stack-access-type header must be ${a.allowed_access_types.map((t) => `'${t}'`).join(" or ")}, but was '${a.actual_access_type}'.`,
      details: (a) => ({
        actual_access_type: a.actual_access_type,
        allowed_access_types: [...a.allowed_access_types],
      }),
    }),
    INVALID_PUBLISHABLE_CLIENT_KEY: entry<{ project_id: string }>({
      status: 401,
      parent: "INVALID_PROJECT_AUTHENTICATION",
      message: (a) =>
        `The publishable key is not valid for the project "${a.project_id}". Does the project and/or the key exist?`,
      details: (a) => ({ project_id: a.project_id }),
    }),
    INVALID_SECRET_SERVER_KEY: entry<{ project_id: string }>({
      status: 401,
      parent: "INVALID_PROJECT_AUTHENTICATION",
      message: (a) =>
        `The secret server key is not valid for the project "${a.project_id}". Does the project and/or the key exist?`,
      details: (a) => ({ project_id: a.project_id }),
    }),
    INVALID_SUPER_SECRET_ADMIN_KEY: entry<{ project_id: string }>({
      status: 401,
      parent: "INVALID_PROJECT_AUTHENTICATION",
      message: (a) =>
        `The super secret admin key is not valid for the project "${a.project_id}". Does the project and/or the key exist?`,
      details: (a) => ({ project_id: a.project_id }),
    }),
    UNPARSABLE_ADMIN_ACCESS_TOKEN: entry({
      status: 401,
      parent: "INVALID_ADMIN_ACCESS_TOKEN",
      message: () => "Admin access token is not parsable.",
    }),
    ADMIN_ACCESS_TOKEN_EXPIRED: entry<TokenExpiry | undefined>({
      status: 401,
      parent: "INVALID_ADMIN_ACCESS_TOKEN",
      message: (a) =>
        `Admin access token has expired. Please refresh it and try again.${expiredAtSuffix(a?.expired_at_millis)}`,
      details: (a) => knownKeys({ expired_at_millis: a?.expired_at_millis }),
    }),
    INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN: entry({
      status: 401,
      parent: "INVALID_ADMIN_ACCESS_TOKEN",
      message: () => "Admin access tokens must be created on the internal project.",
    }),
    ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN: entry({
      status: 401,
      parent: "INVALID_ADMIN_ACCESS_TOKEN",
      message: () => "Admin access token does not have the required permissions to access this project.",
    }),
    CLIENT_AUTHENTICATION_REQUIRED: entry({
      status: 401,
      parent: "PROJECT_AUTHENTICATION_REQUIRED",
      message: () => "The publishable client key must be provided.",
    }),
    PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT: entry<{ project_id: string }>({
      status: 401,
      parent: "PROJECT_AUTHENTICATION_REQUIRED",
      message: () =>
        "Publishable client keys are required for this project. Create one in Project Keys, or disable this requirement there to allow keyless client access.",
      details: (a) => ({ project_id: a.project_id }),
    }),
    SERVER_AUTHENTICATION_REQUIRED: entry({
      status: 401,
      parent: "PROJECT_AUTHENTICATION_REQUIRED",
      message: () => "The secret server key must be provided.",
    }),
    CLIENT_OR_SERVER_AUTHENTICATION_REQUIRED: entry({
      status: 401,
      parent: "PROJECT_AUTHENTICATION_REQUIRED",
      message: () => "Either the publishable client key or the secret server key must be provided.",
    }),
    CLIENT_OR_ADMIN_AUTHENTICATION_REQUIRED: entry({
      status: 401,
      parent: "PROJECT_AUTHENTICATION_REQUIRED",
      message: () => "Either the publishable client key or the super secret admin key must be provided.",
    }),
    CLIENT_OR_SERVER_OR_ADMIN_AUTHENTICATION_REQUIRED: entry({
      status: 401,
      parent: "PROJECT_AUTHENTICATION_REQUIRED",
      message: () =>
        "Either the publishable client key, the secret server key, or the super secret admin key must be provided.",
    }),
    ADMIN_AUTHENTICATION_REQUIRED: entry({
      status: 401,
      parent: "PROJECT_AUTHENTICATION_REQUIRED",
      message: () => "The super secret admin key must be provided.",
    }),
    EXPECTED_INTERNAL_PROJECT: entry({
      status: 401,
      parent: "PROJECT_AUTHENTICATION_ERROR",
      message: () => "The project ID is expected to be internal.",
    }),
    UNPARSABLE_ACCESS_TOKEN: entry({
      status: 401,
      parent: "INVALID_ACCESS_TOKEN",
      message: () => "Access token is not parsable.",
    }),
    ACCESS_TOKEN_EXPIRED: entry<AccessTokenExpiry | undefined>({
      status: 401,
      parent: "INVALID_ACCESS_TOKEN",
      message: (a) =>
        `Access token has expired. Please refresh it and try again.${expiredAtSuffix(a?.expired_at_millis)}`,
      details: (a) =>
        knownKeys({
          expired_at_millis: a?.expired_at_millis,
          project_id: a?.project_id,
          user_id: a?.user_id,
          refresh_token_id: a?.refresh_token_id,
        }),
    }),
    INVALID_PROJECT_FOR_ACCESS_TOKEN: entry<{ expected_project_id: string; actual_project_id: string }>({
      status: 401,
      parent: "INVALID_ACCESS_TOKEN",
      message: (a) =>
        `Access token not valid for this project. Expected project ID "${a.expected_project_id}", but the token is for project ID "${a.actual_project_id}".`,
      details: (a) => ({
        expected_project_id: a.expected_project_id,
        actual_project_id: a.actual_project_id,
      }),
    }),
    REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED: entry({
      status: 401,
      parent: "REFRESH_TOKEN_ERROR",
      message: () => "Refresh token not found for this project, or the session has expired/been revoked.",
    }),
    CANNOT_DELETE_CURRENT_SESSION: entry({
      status: 400,
      parent: "REFRESH_TOKEN_ERROR",
      message: () => "Cannot delete the current session.",
    }),
    PROVIDER_REJECTED: entry({
      status: 401,
      parent: "REFRESH_TOKEN_ERROR",
      message: () =>
        "The provider refused to refresh their token. This usually means that the provider used to authenticate the user no longer regards this session as valid, and the user must re-authenticate.",
    }),
    USER_EMAIL_ALREADY_EXISTS: entry<{ email: string; would_work_if_email_was_verified?: boolean }>({
      status: 409,
      message: (a) =>
        `A user with email "${a.email}" already exists${a.would_work_if_email_was_verified ? NOT_VERIFIED_SUFFIX : "."}`,
      details: (a) => ({
        email: a.email,
        would_work_if_email_was_verified: a.would_work_if_email_was_verified ?? false,
      }),
    }),
    EMAIL_NOT_VERIFIED: entry({ status: 400, message: () => "The email is not verified." }),
    CANNOT_GET_OWN_USER_WITHOUT_USER: entry({
      status: 400,
      message: () => "You have specified 'me' as a userId, but did not provide authentication for a user.",
    }),
    USER_ID_DOES_NOT_EXIST: entry<{ user_id: string }>({
      status: 400,
      message: (a) => `The given user with the ID ${a.user_id} does not exist.`,
      details: (a) => ({ user_id: a.user_id }),
    }),
    USER_NOT_FOUND: entry({ status: 404, message: () => "User not found." }),
    RESTRICTED_USER_NOT_ALLOWED: entry<{ restricted_reason: RestrictedReason }>({
      status: 403,
      message: (a) =>
        `The user in the access token is in restricted state. Reason: ${a.restricted_reason.type}. Please pass the X-Stack-Allow-Restricted-User header if this is intended.`,
      details: (a) => ({ restricted_reason: { type: a.restricted_reason.type } }),
    }),
    USER_AUTHENTICATION_REQUIRED: entry({
      status: 401,
      message: () => "User authentication required for this endpoint.",
    }),
    ANONYMOUS_AUTHENTICATION_NOT_ALLOWED: entry({
      status: 401,
      message: () =>
        "X-Stack-Access-Token is for an anonymous user, but anonymous users are not enabled. Set the X-Stack-Allow-Anonymous-User header of this request to 'true' to allow anonymous users.",
    }),
    ANONYMOUS_ACCOUNTS_NOT_ENABLED: entry({
      status: 400,
      message: () => "Anonymous accounts are not enabled for this project.",
    }),
    PROJECT_NOT_FOUND: entry<{ project_id: string }>({
      status: 404,
      message: (a) => `Project ${a.project_id} not found or is not accessible with the current user.`,
      details: (a) => ({ project_id: a.project_id }),
    }),
    CURRENT_PROJECT_NOT_FOUND: entry<{ project_id: string }>({
      status: 400,
      message: (a) =>
        `The current project with ID ${a.project_id} was not found. Please check the value of the x-stack-project-id header.`,
      details: (a) => ({ project_id: a.project_id }),
    }),
    BRANCH_DOES_NOT_EXIST: entry<{ branch_id: string }>({
      status: 400,
      message: (a) => `The branch with ID ${a.branch_id} does not exist.`,
      details: (a) => ({ branch_id: a.branch_id }),
    }),
    SIGN_UP_NOT_ENABLED: entry({
      status: 400,
      message: () =>
        "Creation of new accounts is not enabled for this project. Please ask the project owner to enable it.",
    }),
    PASSWORD_AUTHENTICATION_NOT_ENABLED: entry({
      status: 400,
      message: () => "Password authentication is not enabled for this project.",
    }),
    PASSKEY_AUTHENTICATION_NOT_ENABLED: entry({
      status: 400,
      message: () => "Passkey authentication is not enabled for this project.",
    }),
    EMAIL_PASSWORD_MISMATCH: entry({ status: 400, message: () => "Wrong e-mail or password." }),
    REDIRECT_URL_NOT_WHITELISTED: entry({
      status: 400,
      message: () =>
        "Redirect URL not whitelisted. Did you forget to add this domain to the trusted domains list on the Stack Auth dashboard?",
    }),
    PASSWORD_TOO_SHORT: entry<{ min_length: number }>({
      status: 400,
      parent: "PASSWORD_REQUIREMENTS_NOT_MET",
      message: (a) => `Password too short. Minimum length is ${a.min_length}.`,
      details: (a) => ({ min_length: a.min_length }),
    }),
    // The one camelCase details key on the wire, kept as Stack Auth sends it.
    PASSWORD_TOO_LONG: entry<{ maxLength: number }>({
      status: 400,
      parent: "PASSWORD_REQUIREMENTS_NOT_MET",
      message: (a) => `Password too long. Maximum length is ${a.maxLength}.`,
      details: (a) => ({ maxLength: a.maxLength }),
    }),
    USER_DOES_NOT_HAVE_PASSWORD: entry({
      status: 400,
      message: () => "This user does not have password authentication enabled.",
    }),
    PASSWORD_CONFIRMATION_MISMATCH: entry({
      status: 400,
      message: () => "Passwords do not match.",
    }),
    MULTI_FACTOR_AUTHENTICATION_REQUIRED: entry<{ attempt_code: string }>({
      status: 400,
      message: () => "Multi-factor authentication is required for this user.",
      details: (a) => ({ attempt_code: a.attempt_code }),
    }),
    INVALID_TOTP_CODE: entry({
      status: 400,
      message: () => "The TOTP code is invalid. Please try again.",
    }),
    VERIFICATION_CODE_NOT_FOUND: entry({
      status: 404,
      parent: "VERIFICATION_ERROR",
      message: () => "The verification code does not exist for this project.",
    }),
    VERIFICATION_CODE_EXPIRED: entry({
      status: 400,
      parent: "VERIFICATION_ERROR",
      message: () => "The verification code has expired.",
    }),
    VERIFICATION_CODE_ALREADY_USED: entry({
      status: 409,
      parent: "VERIFICATION_ERROR",
      message: () => "The verification link has already been used.",
    }),
    VERIFICATION_CODE_MAX_ATTEMPTS_REACHED: entry({
      status: 400,
      parent: "VERIFICATION_ERROR",
      message: () =>
        "The verification code nonce has reached the maximum number of attempts. This code is not valid anymore.",
    }),
    EMAIL_ALREADY_VERIFIED: entry({
      status: 409,
      message: () => "The e-mail is already verified.",
    }),
    EMAIL_NOT_ASSOCIATED_WITH_USER: entry({
      status: 400,
      message: () => "The e-mail is not associated with a user that could log in with that e-mail.",
    }),
    EMAIL_IS_NOT_PRIMARY_EMAIL: entry<{ email: string; primary_email: string | null }>({
      status: 400,
      message: (a) =>
        `The given e-mail (${a.email}) must equal the user's primary e-mail (${a.primary_email}).`,
      details: (a) => ({ email: a.email, primary_email: a.primary_email }),
    }),
    PASSKEY_REGISTRATION_FAILED: entry<{ message: string }>({
      status: 400,
      message: (a) => a.message,
      details: (a) => ({ message: a.message }),
    }),
    PASSKEY_AUTHENTICATION_FAILED: entry<{ message: string }>({
      status: 400,
      message: (a) => a.message,
      details: (a) => ({ message: a.message }),
    }),
    PERMISSION_NOT_FOUND: entry<{ permission_id: string }>({
      status: 404,
      message: (a) => `Permission "${a.permission_id}" not found. Make sure you created it on the dashboard.`,
      details: (a) => ({ permission_id: a.permission_id }),
    }),
    CONTAINED_PERMISSION_NOT_FOUND: entry<{ permission_id: string }>({
      status: 400,
      message: (a) =>
        `Contained permission with ID "${a.permission_id}" not found. Make sure you created it on the dashboard.`,
      details: (a) => ({ permission_id: a.permission_id }),
    }),
    PERMISSION_ID_ALREADY_EXISTS: entry<{ permission_id: string }>({
      status: 400,
      message: (a) => `Permission with ID "${a.permission_id}" already exists. Choose a different ID.`,
      details: (a) => ({ permission_id: a.permission_id }),
    }),
    WRONG_PERMISSION_SCOPE: entry<{
      permission_id: string;
      expected_scope: string;
      actual_scope: string | null;
    }>({
      status: 404,
      message: (a) =>
        `Permission ${JSON.stringify(a.permission_id)} not found. (It was found for a different scope ${JSON.stringify(a.actual_scope)}, but scope ${JSON.stringify(a.expected_scope)} was expected.)`,
      details: (a) => ({
        permission_id: a.permission_id,
        expected_scope: a.expected_scope,
        actual_scope: a.actual_scope,
      }),
    }),
    TEAM_NOT_FOUND: entry<{ team_id: string }>({
      status: 404,
      message: (a) => `Team ${a.team_id} not found.`,
      details: (a) => ({ team_id: a.team_id }),
    }),
    TEAM_MEMBERSHIP_NOT_FOUND: entry<{ team_id: string; user_id: string }>({
      status: 404,
      message: (a) => `User ${a.user_id} is not found in team ${a.team_id}.`,
      details: (a) => ({ team_id: a.team_id, user_id: a.user_id }),
    }),
    TEAM_MEMBERSHIP_ALREADY_EXISTS: entry({
      status: 409,
      message: () => "Team membership already exists.",
    }),
    TEAM_PERMISSION_REQUIRED: entry<TeamPermission>({
      status: 401,
      message: (a) => `User ${a.user_id} does not have permission ${a.permission_id} in team ${a.team_id}.`,
      details: (a) => ({ team_id: a.team_id, user_id: a.user_id, permission_id: a.permission_id }),
    }),
    TEAM_PERMISSION_NOT_FOUND: entry<TeamPermission>({
      status: 401,
      message: (a) => `User ${a.user_id} does not have permission ${a.permission_id} in team ${a.team_id}.`,
      details: (a) => ({ team_id: a.team_id, user_id: a.user_id, permission_id: a.permission_id }),
    }),
    TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED: entry<{ restricted_reason: RestrictedReason }>({
      status: 403,
      message: (a) =>
        `Restricted users cannot accept team invitations. Reason: ${a.restricted_reason.type}. Please complete the onboarding process before accepting team invitations.`,
      details: (a) => ({ restricted_reason: { type: a.restricted_reason.type } }),
    }),
    EMAIL_TEMPLATE_ALREADY_EXISTS: entry({
      status: 409,
      message: () => "Email template already exists.",
    }),
    EMAIL_RENDERING_ERROR: entry<{ error: string }>({
      status: 400,
      message: (a) => `Failed to render email with theme: ${a.error}`,
      details: (a) => ({ error: a.error }),
    }),
    EMAIL_NOT_EDITABLE: entry<{ email_id: string; status: string }>({
      status: 400,
      message: (a) =>
        `Email with ID "${a.email_id}" cannot be edited because it is in status "${a.status}". Only emails in PAUSED, PREPARING, RENDERING, RENDER_ERROR, SCHEDULED, QUEUED, or SERVER_ERROR status can be edited.`,
      details: (a) => ({ email_id: a.email_id, status: a.status }),
    }),
    OAUTH_CONNECTION_NOT_CONNECTED_TO_USER: entry({
      status: 400,
      message: () => "The OAuth connection is not connected to any user.",
    }),
    OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER: entry({
      status: 409,
      message: () => "The OAuth connection is already connected to another user.",
    }),
    OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE: entry({
      status: 400,
      message: () => "The OAuth connection does not have the required scope.",
    }),
    OAUTH_ACCESS_TOKEN_NOT_AVAILABLE: entry<{ provider: string; details: string }>({
      status: 400,
      message: (a) =>
        `Failed to retrieve an OAuth access token for the connected account (provider: ${a.provider}). ${a.details}`,
      details: (a) => ({ provider: a.provider, details: a.details }),
    }),
    OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS: entry({
      status: 400,
      message: () =>
        "Extra scopes are not available with shared OAuth keys. Please add your own OAuth keys on the Stack dashboard to use extra scopes.",
    }),
    OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS: entry({
      status: 400,
      message: () =>
        "Access tokens are not available with shared OAuth keys. Please add your own OAuth keys on the Stack dashboard to use access tokens.",
    }),
    // The client id may be missing from the request; the key is then sent as null.
    INVALID_OAUTH_CLIENT_ID_OR_SECRET: entry<{ client_id?: string | null }>({
      status: 400,
      message: () =>
        "The OAuth client ID or secret is invalid. The client ID must be equal to the project ID (potentially with a hash and a branch ID), and the client secret must be a publishable client key.",
      details: (a) => ({ client_id: a.client_id ?? null }),
    }),
    INVALID_SCOPE: entry<{ scope: string }>({
      status: 400,
      message: (a) => `The scope "${a.scope}" is not a valid OAuth scope for Stack.`,
    }),
    USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION: entry({
      status: 409,
      message: () =>
        "The user is already connected to another OAuth account. Did you maybe selected the wrong account?",
    }),
    OUTER_OAUTH_TIMEOUT: entry({
      status: 408,
      message: () => "The OAuth flow has timed out. Please sign in again.",
    }),
    OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED: entry({
      status: 400,
      message: () => "The OAuth provider is not found or not enabled.",
    }),
    OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN: entry({
      status: 400,
      message: () => "A provider with the same account ID is already used for signing in.",
    }),
    INVALID_SHARED_OAUTH_PROVIDER_ID: entry<{ provider_id: string }>({
      status: 400,
      message: (a) => `The shared OAuth provider with ID ${a.provider_id} is not valid.`,
      details: (a) => ({ provider_id: a.provider_id }),
    }),
    INVALID_STANDARD_OAUTH_PROVIDER_ID: entry<{ provider_id: string }>({
      status: 400,
      message: (a) => `The standard OAuth provider with ID ${a.provider_id} is not valid.`,
      details: (a) => ({ provider_id: a.provider_id }),
    }),
    INVALID_AUTHORIZATION_CODE: entry({
      status: 400,
      message: () => "The given authorization code is invalid.",
    }),
    OAUTH_PROVIDER_ACCESS_DENIED: entry({
      status: 400,
      message: () => "The OAuth provider denied access to the user.",
    }),
    OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE: entry({
      status: 503,
      message: () => "The OAuth provider is temporarily unavailable. Please try signing in again.",
    }),
    // Gatehouse's own (not in Stack's catalogue): the database cannot be reached (a restart, a failover) or did not
    // answer within the statement timeout. Retrying later is the right move, so 503 and not a 500.
    DATABASE_UNAVAILABLE: entry({
      status: 503,
      message: () => "The database is temporarily unavailable. Please try again in a few seconds.",
    }),
    // The value really is wrapped in `"(` and `)"` on the wire (Stack Auth's text).
    CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE: entry<{
      type: "email";
      contact_channel_value: string;
      would_work_if_email_was_verified?: boolean;
    }>({
      status: 409,
      message: (a) =>
        `This ${a.type} "(${a.contact_channel_value})" is already used for authentication by another account${a.would_work_if_email_was_verified ? NOT_VERIFIED_SUFFIX : "."}`,
      details: (a) => ({
        type: a.type,
        contact_channel_value: a.contact_channel_value,
        would_work_if_email_was_verified: a.would_work_if_email_was_verified ?? false,
      }),
    }),
    API_KEY_NOT_FOUND: entry({
      status: 404,
      parent: "API_KEY_NOT_VALID",
      message: () => "API key not found.",
    }),
    INVALID_POLLING_CODE: entry({
      status: 400,
      message: () => "The polling code is invalid or does not exist.",
    }),
    API_KEY_EXPIRED: entry({
      status: 401,
      parent: "API_KEY_NOT_VALID",
      message: () => "API key has expired.",
    }),
    API_KEY_REVOKED: entry({
      status: 401,
      parent: "API_KEY_NOT_VALID",
      message: () => "API key has been revoked.",
    }),
    WRONG_API_KEY_TYPE: entry<{ expected_type: string; actual_type: string }>({
      status: 400,
      parent: "API_KEY_NOT_VALID",
      message: (a) =>
        `This endpoint is for ${a.expected_type} API keys, but a ${a.actual_type} API key was provided.`,
      details: (a) => ({ expected_type: a.expected_type, actual_type: a.actual_type }),
    }),
    /** Stack's code for a session-replay (or other stored item) id that does not exist. */
    ITEM_NOT_FOUND: entry<{ item_id: string }>({
      status: 404,
      message: (a) => `Item with ID "${a.item_id}" not found.`,
      details: (a) => ({ item_id: a.item_id }),
    }),
    /** Stack answers it where the analytics app (session replays) is not set up. */
    ANALYTICS_NOT_ENABLED: entry({
      status: 400,
      message: () => "Analytics is not enabled for this project.",
    }),
    // Payments and the other features of Stack that need an outside service (issue 16), as Stack sends them.
    PRODUCT_DOES_NOT_EXIST: entry<{ product_id: string; context: "server_only" | "item_exists" | null }>({
      status: 400,
      message: (a) =>
        `Product with ID ${JSON.stringify(a.product_id)} ${
          a.context === "server_only"
            ? "is marked as server-only and cannot be accessed client side."
            : a.context === "item_exists"
              ? "does not exist, but an item with this ID exists."
              : "does not exist."
        }`,
      details: (a) => ({ product_id: a.product_id, context: a.context }),
    }),
    STRIPE_ACCOUNT_INFO_NOT_FOUND: entry({
      status: 404,
      message: () =>
        "Stripe account information not found. Please make sure the user has onboarded with Stripe.",
    }),
    SUBSCRIPTION_INVOICE_NOT_FOUND: entry<{ subscription_invoice_id: string }>({
      status: 404,
      message: (a) =>
        `Subscription invoice with ID ${JSON.stringify(a.subscription_invoice_id)} does not exist.`,
      details: (a) => ({ subscription_invoice_id: a.subscription_invoice_id }),
    }),
    ONE_TIME_PURCHASE_NOT_FOUND: entry<{ one_time_purchase_id: string }>({
      status: 404,
      message: (a) => `One-time purchase with ID ${JSON.stringify(a.one_time_purchase_id)} does not exist.`,
      details: (a) => ({ one_time_purchase_id: a.one_time_purchase_id }),
    }),
    DATA_VAULT_STORE_DOES_NOT_EXIST: entry<{ store_id: string }>({
      status: 400,
      message: (a) => `Data vault store with ID ${a.store_id} does not exist.`,
      details: (a) => ({ store_id: a.store_id }),
    }),
    DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST: entry<{ store_id: string; hashed_key: string }>({
      status: 400,
      message: (a) =>
        `Data vault store with ID ${a.store_id} does not contain a key with hash ${a.hashed_key}.`,
      details: (a) => ({ store_id: a.store_id, hashed_key: a.hashed_key }),
    }),
    EMAIL_CAPACITY_BOOST_ALREADY_ACTIVE: entry<{ expires_at: string }>({
      status: 409,
      message: (a) => `Email capacity boost is already active until ${a.expires_at}.`,
      details: (a) => ({ expires_at: a.expires_at }),
    }),
    TEMPLATE_SOURCE_REWRITE_ERROR: entry<{ error: string }>({
      status: 400,
      message: (a) => `Failed to rewrite template source: ${a.error}`,
      details: (a) => ({ error: a.error }),
    }),
  },
  abstractParents,
);

export type KnownErrorCode = keyof typeof KnownErrors;

/**
 * A known error as the SDK receives it (WIRE.md §1.7): rebuilt from the body's code, message and details, with the
 * code's ancestry from this catalogue so parents match (`knownErrorIs`). A code this catalogue does not know keeps
 * its code and message and has no ancestors.
 */
export function knownErrorFromWire(
  status: number,
  body: { code: string; message?: string; details?: KnownErrorDetails },
): KnownError {
  const factory = (KnownErrors as Record<string, { parent: string | undefined } | undefined>)[body.code];
  const ancestors: string[] = [];
  // Parents are abstract classes (never sent), each mapped to its own parent.
  for (let p = factory?.parent; p !== undefined; p = abstractParents[p]) ancestors.push(p);
  return new KnownError(body.code, status, body.message ?? body.code, body.details, ancestors);
}
