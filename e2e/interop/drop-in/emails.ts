// Drop-in scenarios for e-mail to apps' users (issue 16 item 5): notification categories on the signed-in user,
// the server's sendEmail honouring them, the unsubscribe link in marketing mail, the admin outbox (pause, resume,
// cancel), and Stack's TSX template, theme and draft methods served from our templates.
import { expect } from "vitest";
import { type Context, type Scenario, signedUpUser, thrown } from "../scenarios.ts";

const MARKETING = "Marketing";

/** The outbox e-mails to one user, newest first, as the admin app lists them. */
async function outboxFor(ctx: Context, userId: string) {
  const { items } = await ctx.adminApp().listOutboxEmails({ limit: 100 });
  return items.filter((e) => e.to.type === "user-primary-email" && e.to.userId === userId);
}

export const emailScenarios: Scenario[] = [
  {
    name: "e-mail: a user turns marketing off, sendEmail skips them and reaches the other, the link unsubscribes",
    async run(ctx) {
      const log = ctx.log.mark();
      const { user: optedOut } = await signedUpUser(ctx);
      const categories = await optedOut.listNotificationCategories();
      expect(
        categories.map((c) => [c.name, c.enabled, c.canDisable]),
        log.failures(),
      ).toEqual([
        ["Transactional", true, false],
        [MARKETING, true, true],
      ]);
      await categories.find((c) => c.name === MARKETING)?.setEnabled(false);
      const after = await optedOut.listNotificationCategories();
      expect(after.find((c) => c.name === MARKETING)?.enabled, log.failures()).toBe(false);

      const { user: reader, email: readerEmail } = await signedUpUser(ctx);
      const subject = ctx.uniqueName("news");
      await ctx.serverApp().sendEmail({
        userIds: [optedOut.id, reader.id],
        html: "<p>Our news</p>",
        subject,
        notificationCategoryName: MARKETING,
      });
      expect(log.calls(), log.failures()).toContain("POST /api/v1/emails/send-email 200");

      const [skipped] = await outboxFor(ctx, optedOut.id);
      expect(
        skipped && { status: skipped.status, reason: "skippedReason" in skipped && skipped.skippedReason },
      ).toEqual({
        status: "skipped",
        reason: "USER_UNSUBSCRIBED",
      });
      const [queued] = await outboxFor(ctx, reader.id);
      expect(["scheduled", "queued", "sent"], log.failures()).toContain(queued?.status);

      // The marketing mail carries its unsubscribe link; following it turns marketing off for the reader.
      const mail = await ctx.latestEmail(readerEmail);
      expect(mail.subject).toBe(subject);
      const link = /Unsubscribe: (\S+)/.exec(mail.text)?.[1] ?? "";
      expect(link).toContain("/api/v1/emails/unsubscribe-link?code=");
      expect((await fetch(link)).status).toBe(200);
      const readerPrefs = await ctx.serverApp().getUser(reader.id);
      const marketing = (await readerPrefs?.listNotificationCategories())?.find((c) => c.name === MARKETING);
      expect(marketing?.enabled, log.failures()).toBe(false);
    },
  },
  {
    name: "e-mail: the admin pauses, resumes and cancels a scheduled e-mail in the outbox",
    async run(ctx) {
      const log = ctx.log.mark();
      const { user } = await signedUpUser(ctx);
      await ctx.serverApp().sendEmail({
        userIds: [user.id],
        html: "<p>Later</p>",
        subject: "Later",
        scheduledAt: new Date(Date.now() + 3600_000),
      });
      const [email] = await outboxFor(ctx, user.id);
      expect(email?.status, log.failures()).toBe("scheduled");
      const admin = ctx.adminApp();
      const id = email?.id ?? "";
      expect((await admin.pauseOutboxEmail(id)).status, log.failures()).toBe("paused");
      expect((await admin.unpauseOutboxEmail(id)).status, log.failures()).toBe("scheduled");
      const cancelled = await admin.cancelOutboxEmail(id);
      expect(cancelled.status === "skipped" && cancelled.skippedReason, log.failures()).toBe(
        "MANUALLY_CANCELLED",
      );
      expect(await thrown(() => admin.pauseOutboxEmail(id))).toBe("EMAIL_NOT_EDITABLE");
      expect((await admin.getOutboxEmail(id)).status).toBe("skipped");
    },
  },
  {
    name: "e-mail: Stack's TSX template, theme and draft methods read our templates and refuse TSX writes",
    async run(ctx) {
      const admin = ctx.adminApp();
      const log = ctx.log.mark();
      expect(
        (await admin.listEmailThemes()).map((t) => t.displayName),
        log.failures(),
      ).toEqual(["Default Light"]);
      expect(await admin.listEmailDrafts(), log.failures()).toEqual([]);
      const preview = await admin.getEmailPreview({ templateId: "822687fe-8d0a-4467-a0d1-416b6e639478" });
      expect(preview, log.failures()).toContain("ABC123");
      expect(await thrown(() => admin.createEmailTemplate("Welcome"))).toBe("EMAIL_RENDERING_ERROR");
      expect(await thrown(() => admin.createEmailTheme("Dark"))).toBe("EMAIL_RENDERING_ERROR");
      expect(await thrown(() => admin.createEmailDraft({ displayName: "Draft" }))).toBe(
        "EMAIL_RENDERING_ERROR",
      );
      expect(log.calls(), log.failures()).toContain("POST /api/v1/emails/render-email 200");
    },
  },
];
