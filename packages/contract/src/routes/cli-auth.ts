// CLI login (Stack's `/auth/cli`): a command-line app starts an attempt and polls with its polling code while a
// signed-in browser confirms the login code; the poll then answers a refresh token of a new session for the CLI.
import { z } from "zod";
import { defineRoute } from "../route.ts";

const ANY_KEY = ["client", "server", "admin"] as const;
const TAG = "CLI authentication";

/** Stack: 2 hours by default, at most 24. */
export const CLI_AUTH_DEFAULT_EXPIRY_MS = 2 * 60 * 60 * 1000;
export const CLI_AUTH_MAX_EXPIRY_MS = 24 * 60 * 60 * 1000;

export const cliAuthStartRoute = defineRoute({
  method: "POST",
  path: "/api/v1/auth/cli",
  access: ANY_KEY,
  summary: "Starts a CLI login: a polling code for the CLI and a login code for the browser",
  tag: TAG,
  body: z
    .strictObject({
      expires_in_millis: z.number().int().positive().max(CLI_AUTH_MAX_EXPIRY_MS).optional(),
      anon_refresh_token: z.string().min(1).max(256).optional(),
    })
    .default({}),
  response: {
    status: 200,
    kind: "json",
    schema: z.object({ polling_code: z.string(), login_code: z.string(), expires_at: z.string() }),
  },
});

export const cliAuthPollStatusSchema = z.enum(["waiting", "success", "expired", "used"]);

export const cliAuthPollRoute = defineRoute({
  method: "POST",
  path: "/api/v1/auth/cli/poll",
  access: ANY_KEY,
  summary: "Polls a CLI login: waiting, expired, used, or (201, once) success with the CLI's refresh token",
  tag: TAG,
  body: z.strictObject({ polling_code: z.string().min(1).max(256) }),
  response: {
    status: 200,
    kind: "json",
    schema: z.object({ status: cliAuthPollStatusSchema, refresh_token: z.string().optional() }),
  },
});

export const cliAuthCompleteRoute = defineRoute({
  method: "POST",
  path: "/api/v1/auth/cli/complete",
  access: ANY_KEY,
  summary:
    "Confirms a CLI login from a signed-in browser (`complete`), or checks it / claims the CLI's anonymous session",
  tag: TAG,
  body: z.strictObject({
    login_code: z.string().min(1).max(256),
    mode: z.enum(["check", "claim-anon-session", "complete"]).default("complete"),
    refresh_token: z.string().min(1).max(256).optional(),
  }),
  response: {
    status: 200,
    kind: "json",
    schema: z.union([
      z.object({ success: z.literal(true) }),
      z.object({ cli_session_state: z.enum(["anonymous", "none"]) }),
      z.object({ access_token: z.string(), refresh_token: z.string() }),
    ]),
  },
});

export const cliAuthRoutes = [cliAuthStartRoute, cliAuthPollRoute, cliAuthCompleteRoute] as const;
