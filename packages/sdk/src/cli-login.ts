// CLI login (Stack's `promptCliLogin`): the CLI starts an attempt, shows the confirmation URL and polls until a
// signed-in browser confirms it (`completeCliLogin` on the confirmation page), then gets a refresh token of its own.
// Failures come back as Stack's SDK-built errors: CLI_AUTH_ERROR, CLI_AUTH_EXPIRED_ERROR, CLI_AUTH_USED_ERROR.
import { isKnownError, KnownError, Result } from "./errors.ts";
import type { Session } from "./session.ts";
import { StatusError, type Transport } from "./transport.ts";
import { cliAuthConfirmUrl } from "./urls.ts";

export type PromptCliLoginOptions = {
  /** The app whose confirmation page (`urls.cliAuthConfirm`) the user opens. */
  appUrl: string;
  expiresInMillis?: number;
  /** Polls before giving up (default: until the attempt expires). */
  maxAttempts?: number;
  /** Between polls (default 2 s). */
  waitTimeMillis?: number;
  /** The CLI's anonymous session, which the browser may take over. */
  anonRefreshToken?: string;
  /** Shows the URL and code to the user; by default they are logged. */
  promptLink?: (url: string, loginCode: string) => void;
};

/** Stack's SDK-built CLI errors: status 400, the message as given, no details. */
const cliError = (
  code: "CLI_AUTH_ERROR" | "CLI_AUTH_EXPIRED_ERROR" | "CLI_AUTH_USED_ERROR",
  message: string,
) => new KnownError(code, 400, message, undefined, []);

/** What a failed request becomes: the server's words inside CLI_AUTH_ERROR, as Stack's SDK reports them. */
function failure(what: string, error: unknown): KnownError {
  if (error instanceof StatusError)
    return cliError("CLI_AUTH_ERROR", `${what}: ${error.status} ${error.body}`);
  if (isKnownError(error)) return cliError("CLI_AUTH_ERROR", `${what}: ${error.status} ${error.message}`);
  throw error;
}

export async function promptCliLogin(
  transport: Transport,
  cliAuthConfirm: string,
  options: PromptCliLoginOptions,
): Promise<Result<string, KnownError>> {
  let started: { polling_code: string; login_code: string };
  try {
    started = await transport.request("/auth/cli", {
      method: "POST",
      body: {
        ...(options.expiresInMillis !== undefined && { expires_in_millis: options.expiresInMillis }),
        ...(options.anonRefreshToken !== undefined && { anon_refresh_token: options.anonRefreshToken }),
      },
    });
  } catch (error) {
    return Result.error(failure("Failed to initiate CLI auth", error));
  }
  const url = cliAuthConfirmUrl(cliAuthConfirm, options.appUrl, started.login_code);
  if (options.promptLink) options.promptLink(url, started.login_code);
  else {
    console.log(`Your verification code: ${started.login_code}`);
    console.log(`Please visit the following URL to authenticate:\n${url}`);
  }
  for (let attempt = 1; attempt <= (options.maxAttempts ?? Number.POSITIVE_INFINITY); attempt++) {
    let polled: { status: string; refresh_token?: string };
    try {
      polled = await transport.request("/auth/cli/poll", {
        method: "POST",
        body: { polling_code: started.polling_code },
      });
    } catch (error) {
      return Result.error(failure("Failed to poll CLI auth", error));
    }
    if (polled.status === "success" && polled.refresh_token) return Result.ok(polled.refresh_token);
    if (polled.status === "expired")
      return Result.error(
        cliError("CLI_AUTH_EXPIRED_ERROR", "CLI authentication request expired. Please try again."),
      );
    if (polled.status === "used")
      return Result.error(
        cliError("CLI_AUTH_USED_ERROR", "This authentication token has already been used."),
      );
    if (polled.status !== "waiting")
      return Result.error(
        cliError("CLI_AUTH_ERROR", `Unexpected status from CLI auth polling: ${polled.status}`),
      );
    await new Promise((resolve) => setTimeout(resolve, options.waitTimeMillis ?? 2000));
  }
  return Result.error(cliError("CLI_AUTH_ERROR", "Timed out waiting for CLI authentication."));
}

/**
 * [GO] The confirmation page's call: hands the CLI attempt of `loginCode` to the signed-in user of `session`. The
 * server opens the CLI's own session when it next polls; this session's tokens never leave the browser's app.
 */
export async function completeCliLogin(
  transport: Transport,
  session: Session,
  loginCode: string,
): Promise<Result<undefined, KnownError>> {
  // A refresh first, so the token sent is current even under refresh-token rotation.
  await session.getAccessToken();
  const refreshToken = session.getRefreshToken();
  if (!refreshToken) return Result.error(cliError("CLI_AUTH_ERROR", "Sign in to authorize the CLI."));
  try {
    await transport.request("/auth/cli/complete", {
      method: "POST",
      body: { login_code: loginCode, refresh_token: refreshToken },
      session,
    });
    return Result.ok(undefined);
  } catch (error) {
    return Result.error(failure("Authorization failed", error));
  }
}
