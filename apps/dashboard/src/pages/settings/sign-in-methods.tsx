// The project's sign-in switches (WIRE.md §7): sign-up, password, magic link, passkey, and what clients may do with
// teams and their own account. Changes are kept as a draft until saved; success and refusals show in place.
import type { OwnedProject } from "@gatehouse/react";
import { Alert, Button } from "@gatehouse/react/ui";
import { type FormEvent, useState } from "react";
import { useFormAction } from "../form.ts";
import { Switch } from "./controls.tsx";
import { type SettingsConfig, saveProject, useProjectSettings } from "./project-settings.ts";

type Key =
  | "signUpEnabled"
  | "credentialEnabled"
  | "magicLinkEnabled"
  | "passkeyEnabled"
  | "clientTeamCreationEnabled"
  | "clientUserDeletionEnabled"
  | "createTeamOnSignUp";

const SWITCHES: { key: Key; label: string; hint: string }[] = [
  {
    key: "signUpEnabled",
    label: "Sign-up",
    hint: "New users may create an account (users you create are not affected).",
  },
  { key: "credentialEnabled", label: "Password", hint: "Sign up and sign in with e-mail and password." },
  { key: "magicLinkEnabled", label: "Magic link", hint: "Sign in with a code or link sent by e-mail." },
  { key: "passkeyEnabled", label: "Passkey", hint: "Sign in with a passkey once the user has added one." },
  {
    key: "clientTeamCreationEnabled",
    label: "Client team creation",
    hint: "Users may create teams from the app.",
  },
  {
    key: "clientUserDeletionEnabled",
    label: "Client user deletion",
    hint: "Users may delete their own account.",
  },
  {
    key: "createTeamOnSignUp",
    label: "Create a team on sign-up",
    hint: "Every new user gets a personal team.",
  },
];

const pick = (config: SettingsConfig) =>
  Object.fromEntries(SWITCHES.map(({ key }) => [key, config[key]])) as Record<Key, boolean>;

export function SignInMethods({ project }: { project: OwnedProject }) {
  const saved = pick(useProjectSettings(project).config);
  const [draft, setDraft] = useState<Record<Key, boolean> | null>(null);
  const [done, setDone] = useState(false);
  const current = draft ?? saved;

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
    <form className="dash-form" noValidate onSubmit={onSubmit} aria-label="Sign-in settings">
      {SWITCHES.map(({ key, label, hint }) => (
        <Switch
          key={key}
          label={label}
          hint={hint}
          checked={current[key]}
          onChange={(on) => {
            setDone(false);
            setDraft({ ...current, [key]: on });
          }}
        />
      ))}
      {!current.credentialEnabled && !current.magicLinkEnabled && !current.passkeyEnabled && (
        <Alert kind="info">No sign-in method is on: only OAuth providers will let users in.</Alert>
      )}
      {save.error && <Alert>{save.error}</Alert>}
      {done && <Alert kind="success">Sign-in settings saved.</Alert>}
      <div className="dash-actions">
        <Button type="submit" variant="primary" pending={save.pending}>
          Save sign-in settings
        </Button>
        {draft && <Button onClick={() => setDraft(null)}>Discard changes</Button>}
      </div>
    </form>
  );
}
