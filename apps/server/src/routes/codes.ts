// Routes that send and use e-mailed codes (password reset, one-time sign-in, e-mail verification) and the
// development inbox of queued e-mails.
import {
  checkResetCodeRoute,
  checkSignInCodeRoute,
  checkVerifyEmailCodeRoute,
  KnownErrors,
  listEmailsRoute,
  otpSignInRoute,
  resetPasswordRoute,
  sendPrimaryVerificationCodeRoute,
  sendResetCodeRoute,
  sendSignInCodeRoute,
  verifyEmailRoute,
} from "@gatehouse/contract";
import type { Hono } from "hono";
import { inTransaction } from "../db/client.ts";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import { assertTrustedUrl } from "../services/trusted-urls.ts";
import { projectOf } from "./auth.ts";

const valid = { is_code_valid: true as const };

/** Every submission of a code counts against the caller's IP, whatever the flow (WIRE.md §1.10). */
const countSubmission = (deps: Deps, clientIp: string) => deps.rateLimits.hit("code_ip", clientIp);
const success = { success: true as const };

export function registerCodeRoutes(app: Hono<AppEnv>, deps: Deps): void {
  bindRoute(app, deps, sendResetCodeRoute, async ({ body }, { caller }) =>
    deps.passwordAuth.sendResetCode(projectOf(caller), body),
  );
  bindRoute(app, deps, checkResetCodeRoute, async ({ body }, { caller, clientIp }) => {
    await countSubmission(deps, clientIp);
    await deps.passwordAuth.checkResetCode(projectOf(caller), body.code);
    return valid;
  });
  bindRoute(app, deps, resetPasswordRoute, async ({ body }, { caller, clientIp }) => {
    await countSubmission(deps, clientIp);
    await deps.passwordAuth.resetPassword(projectOf(caller), body.code, body.password);
    return success;
  });

  bindRoute(app, deps, sendSignInCodeRoute, async ({ body }, { caller, clientIp }) => {
    await deps.botChallenge.check(projectOf(caller), "send_magic_link_email", body, clientIp);
    deps.sso.domains.assertSsoNotRequired(projectOf(caller), body.email);
    return deps.otpAuth.sendSignInCode(projectOf(caller), body);
  });
  bindRoute(app, deps, checkSignInCodeRoute, async ({ body }, { caller, clientIp }) => {
    await countSubmission(deps, clientIp);
    await deps.otpAuth.check(projectOf(caller), body.code);
    return valid;
  });
  bindRoute(app, deps, otpSignInRoute, async ({ body }, { caller, clientIp }) => {
    const project = projectOf(caller);
    return deps.audit.signInAttempt(project.id, "otp", {}, async () => {
      await countSubmission(deps, clientIp);
      return deps.otpAuth.signIn(project, caller.user?.record ?? null, body.code);
    });
  });

  bindRoute(app, deps, verifyEmailRoute, async ({ body }, { caller, clientIp }) => {
    await countSubmission(deps, clientIp);
    await deps.emailVerification.verify(projectOf(caller).id, body.code);
    return success;
  });
  bindRoute(app, deps, checkVerifyEmailCodeRoute, async ({ body }, { caller, clientIp }) => {
    await countSubmission(deps, clientIp);
    await deps.emailVerification.check(projectOf(caller).id, body.code);
    return valid;
  });
  bindRoute(app, deps, sendPrimaryVerificationCodeRoute, async ({ body }, { caller }) => {
    const project = projectOf(caller);
    const user = caller.user?.record;
    if (!user) throw KnownErrors.USER_AUTHENTICATION_REQUIRED();
    const primary = user.primaryEmail;
    if (primary?.value.toLowerCase() !== body.email.toLowerCase()) {
      throw KnownErrors.EMAIL_IS_NOT_PRIMARY_EMAIL({
        email: body.email,
        primary_email: primary?.value ?? null,
      });
    }
    if (primary.isVerified) throw KnownErrors.EMAIL_ALREADY_VERIFIED();
    assertTrustedUrl(project.config, body.callback_url);
    await deps.rateLimits.hit("email_send", `${project.id}:${primary.value.toLowerCase()}`);
    await inTransaction(deps.db, (tx) =>
      deps.emailVerification.send(tx, project, user, primary.value, body.callback_url),
    );
    return success;
  });

  bindRoute(app, deps, listEmailsRoute, async ({ query }, { caller }) => ({
    is_paginated: false as const,
    items: await deps.outbox.list(projectOf(caller).id, query),
  }));
}
