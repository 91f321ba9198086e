// Stack's fixed notification categories and each user's choice per category (`/emails/notification-preference`):
// no stored row means the category's default. Sending reads the same choices, so an unsubscribed user is skipped.
import { KnownErrors, NOTIFICATION_CATEGORIES } from "@gatehouse/contract";
import { and, eq, inArray } from "drizzle-orm";
import type { Clock } from "../clock.ts";
import type { Db } from "../db/client.ts";
import { notificationPreferences, users } from "../db/schema.ts";
import { TextError } from "../text-error.ts";

export type NotificationCategory = (typeof NOTIFICATION_CATEGORIES)[number];

export type NotificationPreferenceView = {
  notification_category_id: string;
  notification_category_name: string;
  enabled: boolean;
  can_disable: boolean;
};

export const categoryById = (id: string): NotificationCategory | undefined =>
  NOTIFICATION_CATEGORIES.find((c) => c.id === id);

export const categoryByName = (name: string): NotificationCategory | undefined =>
  NOTIFICATION_CATEGORIES.find((c) => c.name === name);

const view = (category: NotificationCategory, enabled: boolean): NotificationPreferenceView => ({
  notification_category_id: category.id,
  notification_category_name: category.name,
  enabled,
  can_disable: category.canDisable,
});

export function createNotificationPreferences(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  async function assertUser(executor: Db, projectId: string, userId: string): Promise<void> {
    const [row] = await executor
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.projectId, projectId), eq(users.id, userId)));
    // Stack answers an unknown user here with USER_NOT_FOUND (its ensureUserExists).
    if (!row) throw KnownErrors.USER_NOT_FOUND();
  }

  const api = {
    async list(projectId: string, userId: string): Promise<NotificationPreferenceView[]> {
      await assertUser(db, projectId, userId);
      const rows = await db
        .select()
        .from(notificationPreferences)
        .where(eq(notificationPreferences.userId, userId));
      const stored = new Map(rows.map((r) => [r.categoryId, r.enabled]));
      return NOTIFICATION_CATEGORIES.map((c) => view(c, stored.get(c.id) ?? c.defaultEnabled));
    },

    /**
     * Stores the choice. Like Stack, a category that cannot be disabled still stores `false`: the choice is kept,
     * but sending ignores it (see `disabledUsers`), so transactional mail always goes out.
     */
    async set(
      projectId: string,
      userId: string,
      categoryId: string,
      enabled: boolean,
      executor: Db = db,
    ): Promise<NotificationPreferenceView> {
      const category = categoryById(categoryId);
      if (!category) throw new TextError(404, "Notification category not found");
      await assertUser(executor, projectId, userId);
      const updatedAt = clock.now();
      await executor
        .insert(notificationPreferences)
        .values({ projectId, userId, categoryId, enabled, updatedAt })
        .onConflictDoUpdate({
          target: [notificationPreferences.userId, notificationPreferences.categoryId],
          set: { enabled, updatedAt },
        });
      return view(category, enabled);
    },

    /** Of `userIds`, those who must not get mail of the category (always none for one that cannot be disabled). */
    async disabledUsers(executor: Db, categoryId: string, userIds: string[]): Promise<Set<string>> {
      const category = categoryById(categoryId);
      if (!category?.canDisable || userIds.length === 0) return new Set();
      const rows = await executor
        .select({ userId: notificationPreferences.userId, enabled: notificationPreferences.enabled })
        .from(notificationPreferences)
        .where(
          and(
            eq(notificationPreferences.categoryId, categoryId),
            inArray(notificationPreferences.userId, userIds),
          ),
        );
      const stored = new Map(rows.map((r) => [r.userId, r.enabled]));
      return new Set(userIds.filter((id) => !(stored.get(id) ?? category.defaultEnabled)));
    },

    /** The worker's check at send time: a user who unsubscribed after an app queued the e-mail is skipped. */
    async skipReason(row: { userId: string | null; notificationCategoryId: string | null }) {
      if (!row.userId || !row.notificationCategoryId) return undefined;
      const disabled = await api.disabledUsers(db, row.notificationCategoryId, [row.userId]);
      return disabled.size > 0 ? "USER_UNSUBSCRIBED" : undefined;
    },
  };
  return api;
}

export type NotificationPreferences = ReturnType<typeof createNotificationPreferences>;
