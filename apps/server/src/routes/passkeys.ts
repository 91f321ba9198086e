// Passkey routes (WIRE.md §4.4): registering the user's passkey and signing in with it. Thin handlers over
// services/passkeys.ts.
import {
  initiatePasskeyAuthenticationRoute,
  initiatePasskeyRegistrationRoute,
  passkeySignInRoute,
  registerPasskeyRoute,
} from "@gatehouse/contract";
import type { Hono } from "hono";
import type { Deps } from "../deps.ts";
import { type AppEnv, bindRoute } from "../http/bind.ts";
import { projectOf, userOf } from "./auth.ts";

export function registerPasskeyRoutes(app: Hono<AppEnv>, deps: Deps): void {
  bindRoute(app, deps, initiatePasskeyRegistrationRoute, async (_input, { caller }) =>
    deps.passkeys.initiateRegistration(projectOf(caller), userOf(caller).record),
  );

  bindRoute(app, deps, registerPasskeyRoute, async ({ body }, { caller, clientIp }) => {
    // The challenge code is a code like any other: its submissions count against the caller's IP (WIRE.md §1.10).
    await deps.rateLimits.hit("code_ip", clientIp);
    return deps.passkeys.register(projectOf(caller), userOf(caller).record, body);
  });

  bindRoute(app, deps, initiatePasskeyAuthenticationRoute, async (_input, { caller }) =>
    deps.passkeys.initiateAuthentication(projectOf(caller)),
  );

  bindRoute(app, deps, passkeySignInRoute, async ({ body }, { caller, clientIp }) => {
    const project = projectOf(caller);
    return deps.audit.signInAttempt(project.id, "passkey", {}, async () => {
      await deps.rateLimits.hit("code_ip", clientIp);
      return deps.passkeys.signIn(project, body);
    });
  });
}
