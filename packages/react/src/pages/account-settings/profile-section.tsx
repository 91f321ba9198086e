// Profile: the display name, and the avatar (picked, shrunk in the browser, stored as a data URL; or removed).
import type { CurrentUser } from "@gatehouse/sdk";
import { useState } from "react";
import { useTranslation } from "../../i18n.ts";
import { ConfirmButton } from "../../ui/confirm-button.tsx";
import { Alert, Avatar, Field, Section } from "../../ui/primitives.tsx";
import { useAction } from "../../ui/use-action.ts";
import { avatarDataUrl } from "./image.ts";
import { NameForm } from "./name-form.tsx";

const IMAGE_PROBLEMS = {
  notImage: "account.image.notImage",
  tooLarge: "account.image.tooLarge",
  unreadable: "account.image.unreadable",
} as const;

export function ProfileSection({ user }: { user: CurrentUser }) {
  const t = useTranslation();
  const [imageProblem, setImageProblem] = useState<string | null>(null);
  const upload = useAction(async (file: File) => {
    setImageProblem(null);
    const outcome = await avatarDataUrl(file);
    if ("problem" in outcome) setImageProblem(t(IMAGE_PROBLEMS[outcome.problem]));
    else await user.update({ profileImageUrl: outcome.dataUrl });
  });
  const removeAvatar = useAction(() => user.update({ profileImageUrl: null }));
  const avatarError = imageProblem ?? upload.error ?? removeAvatar.error;

  return (
    <Section title={t("account.profile.title")}>
      <NameForm
        label={t("account.displayName")}
        initial={user.displayName}
        onSave={(displayName) => user.update({ displayName })}
      />
      <div className="gh-row">
        <Avatar name={user.displayName ?? user.primaryEmail ?? ""} imageUrl={user.profileImageUrl} />
        <div className="gh-stack">
          <Field
            label={t("account.avatar.upload")}
            type="file"
            accept="image/png,image/jpeg,image/gif,image/webp"
            disabled={upload.pending}
            aria-busy={upload.pending || undefined}
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = "";
              if (file) void upload.run(file);
            }}
          />
          {user.profileImageUrl && (
            <ConfirmButton
              label={t("account.avatar.remove")}
              question={t("account.avatar.removeQuestion")}
              pending={removeAvatar.pending}
              onConfirm={removeAvatar.run}
            />
          )}
        </div>
      </div>
      {avatarError && <Alert>{avatarError}</Alert>}
    </Section>
  );
}
