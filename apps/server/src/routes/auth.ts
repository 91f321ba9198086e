// Password and anonymous sign-in routes (WIRE.md §4.1, §4.7): thin handlers over the sign-in services.
import {
  anonymousSignUpRoute,
  KnownErrors,
  knownErrorIs,
  passwordSignInRoute,
  passwordSignUpRoute,
  setPasswordRoute,
  updatePasswordRoute,
} from "@gatehouse/contract";
import type { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import type { Caller, TokenUser } from "../http/caller.ts";
import { readGatehouseHeaders } from "../http/headers.ts";
import { signInResponse } from "../services/sessions.ts";

/** Routes bound with access types always have a project; this narrows the type for handlers. */
export function projectOf(caller: Caller) {
  if (caller.accessType === null) throw new Error("Access check let an unauthenticated caller through");
  return caller.project;
}

/** Routes declared `user: "required"` always have a user here. */
export function userOf(caller: Caller): TokenUser {
  if (!caller.user) throw KnownErrors.USER_AUTHENTICATION_REQUIRED();
  return caller.user;
}

export function registerAuthRoutes(app: Hono<AppEnv>, deps: Deps): void {
  bindRoute(app, deps, passwordSignUpRoute, async ({ body }, { caller, clientIp }) => {
    await deps.botChallenge.check(projectOf(caller), "sign_up_with_credential", body, clientIp);
    // [GO] A domain whose team enforces SSO signs in only through its connection (sso/domains.ts).
    deps.sso.domains.assertSsoNotRequired(projectOf(caller), body.email);
    return signInResponse(
      await deps.passwordAuth.signUp(projectOf(caller), caller.user?.record ?? null, body),
    );
  });

  bindRoute(app, deps, passwordSignInRoute, async ({ body }, { caller, clientIp }) => {
    const project = projectOf(caller);
    return deps.audit.signInAttempt(project.id, "password", { email: body.email }, async () => {
      await deps.botChallenge.check(project, "sign_in_with_credential", body, clientIp);
      deps.sso.domains.assertSsoNotRequired(project, body.email);
      try {
        return signInResponse(await deps.passwordAuth.signIn(project, body, clientIp));
      } catch (error) {
        // Wrong passwords are the "suspicious signal" that makes a `suspicious` project ask this IP for a challenge.
        if (knownErrorIs(error, "EMAIL_PASSWORD_MISMATCH"))
          await deps.botChallenge.recordFailure(project, clientIp);
        throw error;
      }
    });
  });

  bindRoute(app, deps, anonymousSignUpRoute, async (_input, { caller }) => {
    const project = projectOf(caller);
    if (!project.config.sign_up_enabled) throw KnownErrors.SIGN_UP_NOT_ENABLED();
    const issued = await deps.sessions.signInNew(
      (tx) => deps.users.createRecord(tx, { project, isAnonymous: true }),
      "anonymous",
    );
    return signInResponse(issued);
  });

  bindRoute(app, deps, updatePasswordRoute, async ({ body }, { caller, request }) => {
    const user = userOf(caller);
    // The session to keep: the one whose refresh token came with the request, else the access token's.
    const refreshToken = readGatehouseHeaders(request.headers).get("refresh-token");
    const byRefresh = refreshToken
      ? await deps.sessions.findByRefreshToken(user.record.projectId, refreshToken)
      : undefined;
    const keep = byRefresh?.userId === user.id ? byRefresh.id : user.sessionId;
    await deps.passwordAuth.updatePassword(projectOf(caller), user.record, keep, body);
    return { success: true as const };
  });

  bindRoute(app, deps, setPasswordRoute, async ({ body }, { caller }) => {
    await deps.passwordAuth.setPassword(projectOf(caller), userOf(caller).record, body.password);
    return { success: true as const };
  });
}
