import { describe, expect, it } from "vitest";
import { isKnownError, KnownError, knownErrorIs } from "./known-error.ts";
import { KnownErrors } from "./known-errors.ts";

// Every code of WIRE.md §2 except the SDK-built UNSUPPORTED_ERROR and PASSKEY_WEBAUTHN_ERROR, in table order.
const expectedStatuses: Record<string, number> = {
  BODY_PARSING_ERROR: 400,
  SCHEMA_ERROR: 400,
  ALL_OVERLOADS_FAILED: 400,
  PROJECT_KEY_WITHOUT_ACCESS_TYPE: 400,
  INVALID_ACCESS_TYPE: 400,
  ACCESS_TYPE_WITHOUT_PROJECT_ID: 400,
  ACCESS_TYPE_REQUIRED: 400,
  INSUFFICIENT_ACCESS_TYPE: 401,
  INVALID_PUBLISHABLE_CLIENT_KEY: 401,
  INVALID_SECRET_SERVER_KEY: 401,
  INVALID_SUPER_SECRET_ADMIN_KEY: 401,
  UNPARSABLE_ADMIN_ACCESS_TOKEN: 401,
  ADMIN_ACCESS_TOKEN_EXPIRED: 401,
  INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN: 401,
  ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN: 401,
  CLIENT_AUTHENTICATION_REQUIRED: 401,
  PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT: 401,
  SERVER_AUTHENTICATION_REQUIRED: 401,
  CLIENT_OR_SERVER_AUTHENTICATION_REQUIRED: 401,
  CLIENT_OR_ADMIN_AUTHENTICATION_REQUIRED: 401,
  CLIENT_OR_SERVER_OR_ADMIN_AUTHENTICATION_REQUIRED: 401,
  ADMIN_AUTHENTICATION_REQUIRED: 401,
  EXPECTED_INTERNAL_PROJECT: 401,
  UNPARSABLE_ACCESS_TOKEN: 401,
  ACCESS_TOKEN_EXPIRED: 401,
  INVALID_PROJECT_FOR_ACCESS_TOKEN: 401,
  REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED: 401,
  CANNOT_DELETE_CURRENT_SESSION: 400,
  PROVIDER_REJECTED: 401,
  USER_EMAIL_ALREADY_EXISTS: 409,
  EMAIL_NOT_VERIFIED: 400,
  CANNOT_GET_OWN_USER_WITHOUT_USER: 400,
  USER_ID_DOES_NOT_EXIST: 400,
  USER_NOT_FOUND: 404,
  RESTRICTED_USER_NOT_ALLOWED: 403,
  USER_AUTHENTICATION_REQUIRED: 401,
  ANONYMOUS_AUTHENTICATION_NOT_ALLOWED: 401,
  ANONYMOUS_ACCOUNTS_NOT_ENABLED: 400,
  PROJECT_NOT_FOUND: 404,
  CURRENT_PROJECT_NOT_FOUND: 400,
  BRANCH_DOES_NOT_EXIST: 400,
  SIGN_UP_NOT_ENABLED: 400,
  PASSWORD_AUTHENTICATION_NOT_ENABLED: 400,
  PASSKEY_AUTHENTICATION_NOT_ENABLED: 400,
  EMAIL_PASSWORD_MISMATCH: 400,
  REDIRECT_URL_NOT_WHITELISTED: 400,
  PASSWORD_TOO_SHORT: 400,
  PASSWORD_TOO_LONG: 400,
  PASSWORD_BREACHED: 400,
  PASSWORD_TOO_WEAK: 400,
  BOT_CHALLENGE_REQUIRED: 400,
  BOT_CHALLENGE_FAILED: 400,
  USER_DOES_NOT_HAVE_PASSWORD: 400,
  PASSWORD_CONFIRMATION_MISMATCH: 400,
  MULTI_FACTOR_AUTHENTICATION_REQUIRED: 400,
  INVALID_TOTP_CODE: 400,
  VERIFICATION_CODE_NOT_FOUND: 404,
  VERIFICATION_CODE_EXPIRED: 400,
  VERIFICATION_CODE_ALREADY_USED: 409,
  VERIFICATION_CODE_MAX_ATTEMPTS_REACHED: 400,
  EMAIL_ALREADY_VERIFIED: 409,
  EMAIL_NOT_ASSOCIATED_WITH_USER: 400,
  EMAIL_IS_NOT_PRIMARY_EMAIL: 400,
  PASSKEY_REGISTRATION_FAILED: 400,
  PASSKEY_AUTHENTICATION_FAILED: 400,
  PERMISSION_NOT_FOUND: 404,
  CONTAINED_PERMISSION_NOT_FOUND: 400,
  PERMISSION_ID_ALREADY_EXISTS: 400,
  WRONG_PERMISSION_SCOPE: 404,
  TEAM_NOT_FOUND: 404,
  TEAM_MEMBERSHIP_NOT_FOUND: 404,
  TEAM_MEMBERSHIP_ALREADY_EXISTS: 409,
  TEAM_PERMISSION_REQUIRED: 401,
  TEAM_PERMISSION_NOT_FOUND: 401,
  TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED: 403,
  EMAIL_TEMPLATE_ALREADY_EXISTS: 409,
  EMAIL_RENDERING_ERROR: 400,
  EMAIL_NOT_EDITABLE: 400,
  OAUTH_CONNECTION_NOT_CONNECTED_TO_USER: 400,
  OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER: 409,
  OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE: 400,
  OAUTH_ACCESS_TOKEN_NOT_AVAILABLE: 400,
  OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS: 400,
  OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS: 400,
  INVALID_OAUTH_CLIENT_ID_OR_SECRET: 400,
  INVALID_SCOPE: 400,
  USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION: 409,
  OUTER_OAUTH_TIMEOUT: 408,
  OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED: 400,
  OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN: 400,
  INVALID_SHARED_OAUTH_PROVIDER_ID: 400,
  INVALID_STANDARD_OAUTH_PROVIDER_ID: 400,
  INVALID_AUTHORIZATION_CODE: 400,
  OAUTH_PROVIDER_ACCESS_DENIED: 400,
  OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE: 503,
  DATABASE_UNAVAILABLE: 503,
  REDIS_UNAVAILABLE: 503,
  CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE: 409,
  API_KEY_NOT_FOUND: 404,
  INVALID_POLLING_CODE: 400,
  API_KEY_EXPIRED: 401,
  API_KEY_REVOKED: 401,
  WRONG_API_KEY_TYPE: 400,
  ITEM_NOT_FOUND: 404,
  ANALYTICS_NOT_ENABLED: 400,
  PRODUCT_DOES_NOT_EXIST: 400,
  STRIPE_ACCOUNT_INFO_NOT_FOUND: 404,
  SUBSCRIPTION_INVOICE_NOT_FOUND: 404,
  ONE_TIME_PURCHASE_NOT_FOUND: 404,
  DATA_VAULT_STORE_DOES_NOT_EXIST: 400,
  DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST: 400,
  EMAIL_CAPACITY_BOOST_ALREADY_ACTIVE: 409,
  TEMPLATE_SOURCE_REWRITE_ERROR: 400,
  // [GO] Enterprise SSO (issue 19): not in Stack's table.
  SSO_CONNECTION_NOT_FOUND: 404,
  SSO_IDENTITY_PROVIDER_ERROR: 400,
  SSO_DOMAIN_NOT_FOUND: 404,
  SSO_DOMAIN_VERIFICATION_FAILED: 400,
  SSO_REQUIRED: 403,
  SSO_ACCOUNT_BELONGS_TO_ANOTHER_ORGANIZATION: 409,
  SCIM_TOKEN_INVALID: 401,
  SCIM_TOKEN_NOT_FOUND: 404,
  SCIM_RESOURCE_NOT_FOUND: 404,
  SCIM_UNIQUENESS: 409,
  SCIM_INVALID_FILTER: 400,
  SCIM_INVALID_PATH: 400,
  SCIM_INVALID_VALUE: 400,
  SCIM_USER_DEACTIVATED: 403,
  // [GO] The OpenID Provider (apps/server/src/oidc-provider/).
  OIDC_CLIENT_NOT_FOUND: 404,
  OIDC_INTERACTION_NOT_FOUND: 404,
  OIDC_FRESH_SIGN_IN_REQUIRED: 403,
  BACKUP_NOT_AVAILABLE: 400,
  IMPORT_FILE_INVALID: 400,
  IMPORT_FILE_TOO_LARGE: 413,
  IMPORT_JOB_NOT_FOUND: 404,
};

describe("catalogue", () => {
  it("has exactly the codes of WIRE.md §2 with their statuses, in table order", () => {
    expect(Object.keys(KnownErrors)).toEqual(Object.keys(expectedStatuses));
    const statuses = Object.fromEntries(Object.entries(KnownErrors).map(([code, f]) => [code, f.status]));
    expect(statuses).toEqual(expectedStatuses);
  });

  it("factories carry their code, status and parent", () => {
    expect(KnownErrors.PASSWORD_TOO_SHORT.code).toBe("PASSWORD_TOO_SHORT");
    expect(KnownErrors.PASSWORD_TOO_SHORT.status).toBe(400);
    expect(KnownErrors.PASSWORD_TOO_SHORT.parent).toBe("PASSWORD_REQUIREMENTS_NOT_MET");
    expect(KnownErrors.USER_NOT_FOUND.parent).toBeUndefined();
  });
});

describe("errors", () => {
  it("builds a no-argument error", () => {
    const e = KnownErrors.USER_AUTHENTICATION_REQUIRED();
    expect(isKnownError(e)).toBe(true);
    expect(e).toBeInstanceOf(KnownError);
    expect(e.code).toBe("USER_AUTHENTICATION_REQUIRED");
    expect(e.status).toBe(401);
    expect(e.message).toBe("User authentication required for this endpoint.");
    expect(e.details).toBeUndefined();
  });

  it("builds an error with details (the §1.7 example)", () => {
    const e = KnownErrors.PASSWORD_TOO_SHORT({ min_length: 8 });
    expect(e.toBody()).toEqual({
      code: "PASSWORD_TOO_SHORT",
      message: "Password too short. Minimum length is 8.",
      error: "Password too short. Minimum length is 8.",
      details: { min_length: 8 },
    });
  });

  it("keeps the camelCase details key of PASSWORD_TOO_LONG", () => {
    const e = KnownErrors.PASSWORD_TOO_LONG({ maxLength: 256 });
    expect(e.message).toBe("Password too long. Maximum length is 256.");
    expect(e.details).toEqual({ maxLength: 256 });
  });

  it("fills camelCase placeholders from snake_case details", () => {
    const e = KnownErrors.INVALID_PROJECT_FOR_ACCESS_TOKEN({
      expected_project_id: "p1",
      actual_project_id: "p2",
    });
    expect(e.message).toBe(
      'Access token not valid for this project. Expected project ID "p1", but the token is for project ID "p2".',
    );
    expect(e.details).toEqual({ expected_project_id: "p1", actual_project_id: "p2" });
    expect(KnownErrors.ACCESS_TYPE_WITHOUT_PROJECT_ID({ request_type: "client" }).message).toBe(
      "The x-stack-access-type header was 'client', but the x-stack-project-id header was not provided. For more information, see the docs on REST API authentication: https://docs.stack-auth.com/rest-api/overview#authentication",
    );
  });

  it("words USER_EMAIL_ALREADY_EXISTS by would_work_if_email_was_verified", () => {
    const plain = KnownErrors.USER_EMAIL_ALREADY_EXISTS({ email: "a@example.com" });
    expect(plain.status).toBe(409);
    expect(plain.message).toBe('A user with email "a@example.com" already exists.');
    expect(plain.details).toEqual({ email: "a@example.com", would_work_if_email_was_verified: false });

    const unverified = KnownErrors.USER_EMAIL_ALREADY_EXISTS({
      email: "a@example.com",
      would_work_if_email_was_verified: true,
    });
    expect(unverified.message).toBe(
      'A user with email "a@example.com" already exists but the email is not verified. Please login to your existing account with the method you used to sign up, and then verify your email to sign in with this login method.',
    );
    expect(unverified.details).toEqual({ email: "a@example.com", would_work_if_email_was_verified: true });
  });

  it("words CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE by would_work_if_email_was_verified", () => {
    const plain = KnownErrors.CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE({
      type: "email",
      contact_channel_value: "a@example.com",
    });
    expect(plain.message).toBe(
      'This email "(a@example.com)" is already used for authentication by another account.',
    );
    expect(plain.details).toEqual({
      type: "email",
      contact_channel_value: "a@example.com",
      would_work_if_email_was_verified: false,
    });

    const unverified = KnownErrors.CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE({
      type: "email",
      contact_channel_value: "a@example.com",
      would_work_if_email_was_verified: true,
    });
    expect(unverified.message).toBe(
      'This email "(a@example.com)" is already used for authentication by another account but the email is not verified. Please login to your existing account with the method you used to sign up, and then verify your email to sign in with this login method.',
    );
    expect(unverified.details?.would_work_if_email_was_verified).toBe(true);
  });

  it("adds the expiry time to ACCESS_TOKEN_EXPIRED only when it is known", () => {
    for (const without of [KnownErrors.ACCESS_TOKEN_EXPIRED(), KnownErrors.ACCESS_TOKEN_EXPIRED({})]) {
      expect(without.message).toBe("Access token has expired. Please refresh it and try again.");
      expect(without.toBody()).not.toHaveProperty("details");
    }
    expect(KnownErrors.ADMIN_ACCESS_TOKEN_EXPIRED().message).toBe(
      "Admin access token has expired. Please refresh it and try again.",
    );

    const withTime = KnownErrors.ACCESS_TOKEN_EXPIRED({
      expired_at_millis: 1_700_000_000_000,
      user_id: "u1",
    });
    expect(withTime.message).toBe(
      "Access token has expired. Please refresh it and try again. (The access token expired at 2023-11-14T22:13:20.000Z.)",
    );
    expect(withTime.details).toEqual({ expired_at_millis: 1_700_000_000_000, user_id: "u1" });

    const admin = KnownErrors.ADMIN_ACCESS_TOKEN_EXPIRED({ expired_at_millis: 1_700_000_000_000 });
    expect(admin.message).toBe(
      "Admin access token has expired. Please refresh it and try again. (The access token expired at 2023-11-14T22:13:20.000Z.)",
    );
    expect(admin.details).toEqual({ expired_at_millis: 1_700_000_000_000 });
  });

  it("lists the allowed access types of INSUFFICIENT_ACCESS_TYPE", () => {
    const e = KnownErrors.INSUFFICIENT_ACCESS_TYPE({
      actual_access_type: "client",
      allowed_access_types: ["server", "admin"],
    });
    expect(e.status).toBe(401);
    expect(e.message).toBe("The x-stack-access-type header must be 'server' or 'admin', but was 'client'.");
    expect(e.details).toEqual({ actual_access_type: "client", allowed_access_types: ["server", "admin"] });
  });

  it("takes message-only arguments without putting them in details", () => {
    const body = KnownErrors.BODY_PARSING_ERROR({ message: "Invalid JSON in request body" }).toBody();
    expect(body).toEqual({
      code: "BODY_PARSING_ERROR",
      message: "Invalid JSON in request body",
      error: "Invalid JSON in request body",
    });
    expect(KnownErrors.INVALID_ACCESS_TYPE({ accessType: "root" }).toBody()).toEqual({
      code: "INVALID_ACCESS_TYPE",
      message: "The x-stack-access-type header must be 'client', 'server', or 'admin', but was 'root'.",
      error: "The x-stack-access-type header must be 'client', 'server', or 'admin', but was 'root'.",
    });
    expect(KnownErrors.INVALID_SCOPE({ scope: "foo" }).toBody()).not.toHaveProperty("details");
  });

  it("uses the restricted reason type in messages", () => {
    const e = KnownErrors.RESTRICTED_USER_NOT_ALLOWED({ restricted_reason: { type: "email_not_verified" } });
    expect(e.status).toBe(403);
    expect(e.message).toBe(
      "The user in the access token is in restricted state. Reason: email_not_verified. Please pass the X-Stack-Allow-Restricted-User header if this is intended.",
    );
    expect(e.details).toEqual({ restricted_reason: { type: "email_not_verified" } });
  });

  it("omits empty details from the body", () => {
    const body = KnownErrors.USER_NOT_FOUND().toBody();
    expect(body).toEqual({ code: "USER_NOT_FOUND", message: "User not found.", error: "User not found." });
    expect(body).not.toHaveProperty("details");
  });
});

describe("parent matching", () => {
  it("matches ADMIN_ACCESS_TOKEN_EXPIRED against all its ancestors", () => {
    const e = KnownErrors.ADMIN_ACCESS_TOKEN_EXPIRED();
    expect(knownErrorIs(e, "ADMIN_ACCESS_TOKEN_EXPIRED")).toBe(true);
    expect(knownErrorIs(e, "INVALID_ADMIN_ACCESS_TOKEN")).toBe(true);
    expect(knownErrorIs(e, "INVALID_PROJECT_AUTHENTICATION")).toBe(true);
    expect(knownErrorIs(e, "PROJECT_AUTHENTICATION_ERROR")).toBe(true);
    expect(knownErrorIs(e, "INVALID_ACCESS_TOKEN")).toBe(false);
  });

  it("matches PASSWORD_TOO_SHORT against its parent only", () => {
    const e = KnownErrors.PASSWORD_TOO_SHORT({ min_length: 8 });
    expect(knownErrorIs(e, "PASSWORD_REQUIREMENTS_NOT_MET")).toBe(true);
    expect(knownErrorIs(e, "VERIFICATION_ERROR")).toBe(false);
  });

  it("matches ACCESS_TOKEN_EXPIRED against the session chain", () => {
    const e = KnownErrors.ACCESS_TOKEN_EXPIRED();
    expect(knownErrorIs(e, "INVALID_ACCESS_TOKEN")).toBe(true);
    expect(knownErrorIs(e, "INVALID_SESSION_AUTHENTICATION")).toBe(true);
    expect(knownErrorIs(e, "SESSION_AUTHENTICATION_ERROR")).toBe(true);
    expect(knownErrorIs(e, "PROJECT_AUTHENTICATION_ERROR")).toBe(false);
  });

  it("does not match plain errors", () => {
    expect(knownErrorIs(new Error("x"), "USER_NOT_FOUND")).toBe(false);
  });
});
