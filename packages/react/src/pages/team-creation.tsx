// The team-creation handler page (Stack's `team-creation`): a signed-in user names a new team, which becomes their
// selected team, and goes back to the app. Only where the project lets clients create teams.
import { type FormEvent, useState } from "react";
import { useProject, useUser } from "../hooks.ts";
import { useTranslation } from "../i18n.ts";
import { useStackApp } from "../provider.tsx";
import { Alert, Button, Field, PageCard } from "../ui/primitives.tsx";
import { useAction } from "../ui/use-action.ts";

export function TeamCreation() {
  const t = useTranslation();
  const app = useStackApp();
  const user = useUser({ or: "redirect" });
  const { config } = useProject();
  const [name, setName] = useState("");
  const [missing, setMissing] = useState(false);
  const create = useAction(async (displayName: string) => {
    const team = await user.createTeam({ displayName });
    await user.setSelectedTeam(team);
    await app.redirectToAfterSignIn();
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const displayName = name.trim();
    setMissing(!displayName);
    if (displayName) void create.run(displayName);
  };

  if (!config.clientTeamCreationEnabled) {
    return (
      <PageCard title={t("teamCreation.title")}>
        <Alert kind="info">{t("teamCreation.disabled")}</Alert>
      </PageCard>
    );
  }
  return (
    <PageCard title={t("teamCreation.title")}>
      <form className="gh-stack" onSubmit={submit} noValidate>
        <Field
          label={t("teamCreation.name")}
          value={name}
          maxLength={200}
          error={missing ? t("common.required") : null}
          onChange={(event) => setName(event.target.value)}
        />
        {create.error && <Alert>{create.error}</Alert>}
        <Button type="submit" pending={create.pending}>
          {t("teamCreation.create")}
        </Button>
      </form>
    </PageCard>
  );
}
