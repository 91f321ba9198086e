// The catalogue entries the SDK raises itself in a browser (every other error it shows comes from the wire). Declared
// with their status (defineWithStatus) so a client's first load carries neither the catalogue's messages nor its
// status column; known-errors.ts re-exports them as part of the catalogue, and its test checks the statuses.
import { defineWithStatus } from "./known-error.ts";

export const USER_AUTHENTICATION_REQUIRED = /* @__PURE__ */ defineWithStatus(
  "USER_AUTHENTICATION_REQUIRED",
  401,
  {
    message: () => "User authentication required for this endpoint.",
  },
);
export const OAUTH_ACCESS_TOKEN_NOT_AVAILABLE = /* @__PURE__ */ defineWithStatus<{
  provider: string;
  details: string;
}>("OAUTH_ACCESS_TOKEN_NOT_AVAILABLE", 400, {
  message: (a) =>
    `Failed to retrieve an OAuth access token for the connected account (provider: ${a.provider}). ${a.details}`,
  details: (a) => ({ provider: a.provider, details: a.details }),
});
