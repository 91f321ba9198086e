// The profile picture: the current one, a button that opens the file chooser (the native file input stays hidden
// behind it, still labelled, so assistive technology and tests reach it), a preview of the chosen picture cropped to
// a square before anything is saved, with Save and Cancel, and Remove (confirmed) for a picture already set.
import type { CurrentUser } from "@gatehouse/sdk";
import { useId, useRef, useState } from "react";
import { useTranslation } from "../../i18n.ts";
import { ConfirmButton } from "../../ui/confirm-button.tsx";
import { Alert, Avatar, Button, Muted } from "../../ui/primitives.tsx";
import { useAction } from "../../ui/use-action.ts";
import { avatarDataUrl } from "./image.ts";

const IMAGE_PROBLEMS = {
  notImage: "account.image.notImage",
  tooLarge: "account.image.tooLarge",
  unreadable: "account.image.unreadable",
} as const;

export function AvatarPicker({ user }: { user: CurrentUser }) {
  const t = useTranslation();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [imageProblem, setImageProblem] = useState<string | null>(null);
  const choose = useAction(async (file: File) => {
    setImageProblem(null);
    setPreview(null);
    const outcome = await avatarDataUrl(file);
    if ("problem" in outcome) setImageProblem(t(IMAGE_PROBLEMS[outcome.problem]));
    else setPreview(outcome.dataUrl);
  });
  const save = useAction(async (dataUrl: string) => {
    await user.update({ profileImageUrl: dataUrl });
    setPreview(null);
  });
  const remove = useAction(() => user.update({ profileImageUrl: null }));
  const error = imageProblem ?? choose.error ?? save.error ?? remove.error;
  const name = user.displayName ?? user.primaryEmail ?? "";

  return (
    <>
      <div className="gh-row gh-avatar-picker">
        <Avatar name={name} imageUrl={preview ?? user.profileImageUrl} size={72} />
        <div className="gh-stack">
          <label className="gh-label" htmlFor={id}>
            {t("account.avatar.upload")}
          </label>
          <input
            ref={input}
            id={id}
            className="gh-visually-hidden"
            type="file"
            tabIndex={-1}
            accept="image/png,image/jpeg,image/gif,image/webp"
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = "";
              if (file) void choose.run(file);
            }}
          />
          {preview ? (
            <>
              <Muted>{t("polish.avatar.preview")}</Muted>
              <div className="gh-row">
                <Button variant="primary" pending={save.pending} onClick={() => void save.run(preview)}>
                  {t("polish.avatar.save")}
                </Button>
                <Button onClick={() => setPreview(null)}>{t("common.cancel")}</Button>
              </div>
            </>
          ) : (
            <div className="gh-row">
              <Button pending={choose.pending} onClick={() => input.current?.click()}>
                {t(user.profileImageUrl ? "polish.avatar.change" : "polish.avatar.choose")}
              </Button>
              {user.profileImageUrl && (
                <ConfirmButton
                  label={t("account.avatar.remove")}
                  question={t("account.avatar.removeQuestion")}
                  pending={remove.pending}
                  onConfirm={remove.run}
                />
              )}
            </div>
          )}
          <Muted>{t("polish.avatar.hint")}</Muted>
        </div>
      </div>
      {error && <Alert>{error}</Alert>}
    </>
  );
}
