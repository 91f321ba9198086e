// Multi-factor routes (WIRE.md §4.3): completing a sign-in paused by MULTI_FACTOR_AUTHENTICATION_REQUIRED, and
// [GO] the user's recovery codes. Thin handlers over services/mfa.ts.
import { mfaRecoveryCodesRoute, mfaSignInRoute } from "@gatehouse/contract";
import type { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import { signInResponse } from "../services/sessions.ts";
import { projectOf, userOf } from "./auth.ts";

export function registerMfaRoutes(app: Hono<AppEnv>, deps: Deps): void {
  bindRoute(app, deps, mfaSignInRoute, async ({ body }, { caller, clientIp }) => {
    // The attempt code is a code like any other: its submissions count against the caller's IP (WIRE.md §1.10).
    const project = projectOf(caller);
    return deps.audit.signInAttempt(project.id, `mfa_${body.type}`, {}, async () => {
      await deps.rateLimits.hit("code_ip", clientIp);
      const signedIn = await deps.mfa.signIn(project, body);
      return signInResponse(signedIn, signedIn.isNewUser);
    });
  });

  bindRoute(app, deps, mfaRecoveryCodesRoute, async (_input, { caller }) => ({
    recovery_codes: await deps.mfa.generateRecoveryCodes(userOf(caller).record),
  }));
}
