// Profile: the display name, and the avatar (AvatarPicker: picked, previewed as a square, stored as a data URL).
import type { CurrentUser } from "@gatehouse/sdk";
import { useTranslation } from "../../i18n.ts";
import { Section } from "../../ui/primitives.tsx";
import { AvatarPicker } from "./avatar-picker.tsx";
import { NameForm } from "./name-form.tsx";

export function ProfileSection({ user }: { user: CurrentUser }) {
  const t = useTranslation();
  return (
    <Section title={t("account.profile.title")}>
      <NameForm
        label={t("account.displayName")}
        initial={user.displayName}
        onSave={(displayName) => user.update({ displayName })}
      />
      <AvatarPicker user={user} />
    </Section>
  );
}
