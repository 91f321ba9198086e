// API keys in account settings: the user's own keys and, per team, the team's (where the project allows each kind):
// listed with their last four characters, created with a description (the new key shown once), revoked after
// confirming. Stack's sections of the same names.
import type { CurrentUser, TeamApiKey, UserApiKey } from "@gatehouse/sdk";
import { type FormEvent, useState } from "react";
import { useTeams } from "../../hooks.ts";
import { useTranslation } from "../../i18n.ts";
import { ConfirmButton } from "../../ui/confirm-button.tsx";
import { Alert, Button, Field, Muted, Section, Spinner } from "../../ui/primitives.tsx";
import { useAction } from "../../ui/use-action.ts";
import { useLoaded } from "./use-loaded.ts";

/** What owns keys: a user or a team, with the SDK's key members. */
type KeyOwner = {
  id: string;
  listApiKeys(): Promise<(UserApiKey | TeamApiKey)[]>;
  createApiKey(options: { description: string; expiresAt: Date | null }): Promise<{ value: string }>;
};

export function ApiKeysSection({ user }: { user: CurrentUser }) {
  const t = useTranslation();
  return (
    <Section title={t("account.apiKeys.title")}>
      <KeyList owner={user} label={t("account.apiKeys.title")} />
    </Section>
  );
}

export function TeamApiKeysSection() {
  const t = useTranslation();
  const teams = useTeams();
  return (
    <Section title={t("account.teamApiKeys.title")}>
      {teams.length === 0 && <Muted>{t("account.teamApiKeys.noTeams")}</Muted>}
      {teams.map((team) => (
        <section
          key={team.id}
          className="gh-stack"
          aria-label={t("account.teamApiKeys.team", { team: team.displayName })}
        >
          <h3 className="gh-label">{t("account.teamApiKeys.team", { team: team.displayName })}</h3>
          <KeyList owner={team} label={t("account.teamApiKeys.team", { team: team.displayName })} />
        </section>
      ))}
    </Section>
  );
}

function KeyList({ owner, label }: { owner: KeyOwner; label: string }) {
  const t = useTranslation();
  const keys = useLoaded(() => owner.listApiKeys(), owner.id);
  const [description, setDescription] = useState("");
  const [created, setCreated] = useState<string | null>(null);
  const create = useAction(async () => {
    const key = await owner.createApiKey({ description: description.trim(), expiresAt: null });
    setCreated(key.value);
    setDescription("");
    await keys.reload();
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (description.trim()) void create.run();
  };
  return (
    <div className="gh-stack">
      {keys.error && <Alert>{keys.error}</Alert>}
      {!keys.data && !keys.error && <Spinner label={t("common.loading")} />}
      {keys.data && keys.data.length === 0 && <Muted>{t("account.apiKeys.none")}</Muted>}
      {keys.data && keys.data.length > 0 && (
        <ul className="gh-list" aria-label={label}>
          {keys.data.map((key) => (
            <KeyItem key={key.id} apiKey={key} onRevoked={keys.reload} />
          ))}
        </ul>
      )}
      {created && (
        <Alert kind="success">
          {t("account.apiKeys.created")} <code style={{ overflowWrap: "anywhere" }}>{created}</code>
        </Alert>
      )}
      <form className="gh-row" onSubmit={submit}>
        <Field
          label={t("account.apiKeys.description")}
          value={description}
          required
          maxLength={200}
          onChange={(event) => setDescription(event.target.value)}
        />
        <Button type="submit" pending={create.pending}>
          {t("account.apiKeys.create")}
        </Button>
      </form>
      {create.error && <Alert>{create.error}</Alert>}
    </div>
  );
}

function KeyItem({ apiKey, onRevoked }: { apiKey: UserApiKey | TeamApiKey; onRevoked: () => Promise<void> }) {
  const t = useTranslation();
  const revoke = useAction(async () => {
    await apiKey.revoke();
    await onRevoked();
  });
  const revoked = apiKey.whyInvalid() !== null;
  return (
    <li className="gh-list-item">
      <div className="gh-stack">
        <span className="gh-text">{apiKey.description}</span>
        <span className="gh-muted">
          {t("account.apiKeys.endsWith", { lastFour: apiKey.value.lastFour })}
          {revoked && ` · ${t("account.apiKeys.revoked")}`}
        </span>
        {revoke.error && <Alert>{revoke.error}</Alert>}
      </div>
      {!revoked && (
        <ConfirmButton
          label={t("account.apiKeys.revoke")}
          question={t("account.apiKeys.revokeQuestion")}
          pending={revoke.pending}
          onConfirm={revoke.run}
        />
      )}
    </li>
  );
}
