// Drop-in scenarios for what a page load and the member comparison brought (issue 16 items 1, 6 and 8): session
// replays as the admin app reads them (none recorded: an empty list, ITEM_NOT_FOUND for an id), the partial user
// read from the access token, and a server user's team, password and verification calls. The browser-only calls
// (the event tracker's batches, backend URLs without an explicit base URL) are covered by the server's route tests.
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { type Scenario, signedUpUser, signIn, thrown } from "../scenarios.ts";

export const pageLoadAnalyticsScenarios: Scenario[] = [
  {
    name: "session replays: the admin app lists none, and a replay id is ITEM_NOT_FOUND",
    async run(ctx) {
      const admin = ctx.adminApp();
      const log = ctx.log.mark();
      const page = await admin.listSessionReplays({ limit: 10 });
      expect(page.items, log.failures()).toEqual([]);
      expect(page.nextCursor).toBeNull();
      const id = randomUUID();
      expect(await thrown(() => admin.getSessionReplay(id)), log.failures()).toBe("ITEM_NOT_FOUND");
      expect(log.calls()).toContain(`GET /api/v1/internal/session-replays/${id} 404`);
    },
  },
  {
    name: "partial user: getPartialUser reads who is signed in from the access token",
    async run(ctx) {
      const { app, user, email } = await signedUpUser(ctx);
      const partial = await app.getPartialUser({ from: "token" });
      expect(
        partial && { id: partial.id, email: partial.primaryEmail, anonymous: partial.isAnonymous },
      ).toEqual({
        id: user.id,
        email,
        anonymous: false,
      });
      await user.signOut();
      expect(await ctx.clientApp().getPartialUser({ from: "token" })).toBeNull();
    },
  },
  {
    name: "server user: getTeam before and after leaving a team, setPassword, then a sign-in with the new password",
    async run(ctx) {
      const { user, email } = await signedUpUser(ctx);
      const server = ctx.serverApp();
      const log = ctx.log.mark();
      const serverUser = await server.getUser(user.id);
      if (!serverUser) throw new Error(`no server user ${user.id}`);
      const team = await serverUser.createTeam({ displayName: ctx.uniqueName("team") });
      expect((await serverUser.getTeam(team.id))?.id, log.failures()).toBe(team.id);
      // Stack's own ServerUser.leaveTeam sends a client request without a user, which its backend refuses too
      // (CANNOT_GET_OWN_USER_WITHOUT_USER): the team removes the member instead, and our SDK's leaveTeam is unit-tested.
      await team.removeUser(user.id);
      expect(await serverUser.getTeam(team.id), log.failures()).toBeNull();

      await serverUser.setPassword({ password: "a brand new password" });
      const app = ctx.clientApp();
      expect((await signIn(app, email, "a brand new password")).status, log.failures()).toBe("ok");
      expect((await app.getUser())?.id).toBe(user.id);
    },
  },
];
