// The project's sign-in switches (WIRE.md §7): sign-up, password, magic link, passkey, and what clients may do with
// teams and their own account. Changes are kept as a draft until saved; success and refusals show in place.
import type { OwnedProject } from "@gatehouse/react";
import { Alert, Button } from "@gatehouse/react/ui";
import { type FormEvent, useState } from "react";
import { useDashboardTranslation } from "../../messages.ts";
import { useFormAction } from "../form.ts";
import { Switch } from "./controls.tsx";
import { type SettingsConfig, saveProject, useProjectSettings } from "./project-settings.ts";

/** A switch's label key; its hint is the same key with `.hint`. */
type SwitchText =
  | "set.signUp"
  | "set.password"
  | "set.magicLink"
  | "set.passkey"
  | "set.clientTeams"
  | "set.clientDeletion"
  | "set.teamOnSignUp";

type Key =
  | "signUpEnabled"
  | "credentialEnabled"
  | "magicLinkEnabled"
  | "passkeyEnabled"
  | "clientTeamCreationEnabled"
  | "clientUserDeletionEnabled"
  | "createTeamOnSignUp";

const SWITCHES: { key: Key; text: SwitchText }[] = [
  { key: "signUpEnabled", text: "set.signUp" },
  { key: "credentialEnabled", text: "set.password" },
  { key: "magicLinkEnabled", text: "set.magicLink" },
  { key: "passkeyEnabled", text: "set.passkey" },
  { key: "clientTeamCreationEnabled", text: "set.clientTeams" },
  { key: "clientUserDeletionEnabled", text: "set.clientDeletion" },
  { key: "createTeamOnSignUp", text: "set.teamOnSignUp" },
];

const pick = (config: SettingsConfig) =>
  Object.fromEntries(SWITCHES.map(({ key }) => [key, config[key]])) as Record<Key, boolean>;

export function SignInMethods({ project }: { project: OwnedProject }) {
  const saved = pick(useProjectSettings(project).config);
  const [draft, setDraft] = useState<Record<Key, boolean> | null>(null);
  const [done, setDone] = useState(false);
  const current = draft ?? saved;
  const t = useDashboardTranslation();

  const save = useFormAction(async () => {
    await saveProject(project, { config: current });
    setDraft(null);
    setDone(true);
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void save.run();
  };

  return (
    <form className="dash-form" noValidate onSubmit={onSubmit} aria-label={t("set.form")}>
      {SWITCHES.map(({ key, text }) => (
        <Switch
          key={key}
          label={t(text)}
          hint={t(`${text}.hint`)}
          checked={current[key]}
          onChange={(on) => {
            setDone(false);
            setDraft({ ...current, [key]: on });
          }}
        />
      ))}
      {!current.credentialEnabled && !current.magicLinkEnabled && !current.passkeyEnabled && (
        <Alert kind="info">{t("set.noMethod")}</Alert>
      )}
      {save.error && <Alert>{save.error}</Alert>}
      {done && <Alert kind="success">{t("set.saved")}</Alert>}
      <div className="dash-actions">
        <Button type="submit" variant="primary" pending={save.pending}>
          {t("set.save")}
        </Button>
        {draft && <Button onClick={() => setDraft(null)}>{t("set.discard")}</Button>}
      </div>
    </form>
  );
}
