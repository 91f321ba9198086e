// Notifications in account settings: each e-mail category the project sends, with a switch the user may turn off
// (categories that cannot be turned off, like security notices, are shown checked and disabled).
import type { CurrentUser, NotificationCategory } from "@gatehouse/sdk";
import { useTranslation } from "../../i18n.ts";
import { Alert, Muted, Section, Spinner } from "../../ui/primitives.tsx";
import { useAction } from "../../ui/use-action.ts";
import { useLoaded } from "./use-loaded.ts";

export function NotificationsSection({ user }: { user: CurrentUser }) {
  const t = useTranslation();
  const categories = useLoaded(() => user.listNotificationCategories(), user.id);
  return (
    <Section title={t("account.notifications.title")}>
      {categories.error && <Alert>{categories.error}</Alert>}
      {!categories.data && !categories.error && <Spinner label={t("common.loading")} />}
      {categories.data?.length === 0 && <Muted>{t("account.notifications.none")}</Muted>}
      {categories.data && categories.data.length > 0 && (
        <ul className="gh-list">
          {categories.data.map((category) => (
            <CategoryItem key={category.id} category={category} onChanged={categories.reload} />
          ))}
        </ul>
      )}
    </Section>
  );
}

function CategoryItem({
  category,
  onChanged,
}: {
  category: NotificationCategory;
  onChanged: () => Promise<void>;
}) {
  const t = useTranslation();
  const toggle = useAction(async (enabled: boolean) => {
    await category.setEnabled(enabled);
    await onChanged();
  });
  return (
    <li className="gh-list-item">
      <label className="gh-row">
        <input
          type="checkbox"
          checked={category.enabled}
          disabled={!category.canDisable || toggle.pending}
          onChange={(event) => void toggle.run(event.target.checked)}
        />
        <span className="gh-text">{category.name}</span>
      </label>
      {!category.canDisable && <Muted>{t("account.notifications.required")}</Muted>}
      {toggle.error && <Alert>{toggle.error}</Alert>}
    </li>
  );
}
