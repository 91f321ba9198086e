// The project's API keys: create a key set (which keys, description, expiry) whose full keys are shown once
// (api-key-reveal.tsx), and the list of sets with the last four characters of each key, their status, revocation.
import type { ApiKeySet } from "@gatehouse/react";
import { Alert, Button, Field, Muted, useLocale } from "@gatehouse/react/ui";
import { type FormEvent, useState } from "react";
import { invalidate, useQuery } from "../data.ts";
import { ScreenHeader } from "../layout.tsx";
import { type DashboardKey, useDashboardTranslation } from "../messages.ts";
import { type ProjectScreenProps, projectKey } from "../project.tsx";
import { Reveal, type Revealed } from "./api-key-reveal.tsx";
import { ConfirmButton, Part, TableHead, TableScroll } from "./bricks.tsx";
import { dateTime } from "./delivery/confirm.tsx";
import { useFormAction } from "./form.ts";

/** The key types, with the environment variable an app reads each from (Stack Auth's names). */
const KEY_TYPES = [
  {
    id: "publishableClientKey",
    label: "keys.type.publishable",
    hint: "keys.hint.publishable",
    env: "NEXT_PUBLIC_STACK_PUBLISHABLE_CLIENT_KEY",
  },
  {
    id: "secretServerKey",
    label: "keys.type.secret",
    hint: "keys.hint.secret",
    env: "STACK_SECRET_SERVER_KEY",
  },
  {
    id: "superSecretAdminKey",
    label: "keys.type.admin",
    hint: "keys.hint.admin",
    env: "STACK_SUPER_SECRET_ADMIN_KEY",
  },
] as const satisfies readonly { id: string; label: DashboardKey; hint: DashboardKey; env: string }[];
type KeyType = (typeof KEY_TYPES)[number]["id"];

const DAY = 24 * 3600 * 1000;
/** Expiry choices, named through Intl's units ("7 days", "7 Tage"); "never" is a hundred years away (the server
 * needs a date). */
const EXPIRIES: { count: number; unit: "day" | "year" | null; millis: number }[] = [
  { count: 1, unit: "day", millis: DAY },
  { count: 7, unit: "day", millis: 7 * DAY },
  { count: 30, unit: "day", millis: 30 * DAY },
  { count: 90, unit: "day", millis: 90 * DAY },
  { count: 1, unit: "year", millis: 365 * DAY },
  { count: 0, unit: null, millis: 100 * 365 * DAY },
];

const keysKey = (project: { id: string }) => projectKey(project, "api-keys");

export function ApiKeysPage({ project }: ProjectScreenProps) {
  const [revealed, setRevealed] = useState<Revealed | null>(null);
  const t = useDashboardTranslation();
  return (
    <>
      <ScreenHeader title={t("nav.apiKeys")} />
      {revealed ? (
        <Reveal project={project} revealed={revealed} onDone={() => setRevealed(null)} />
      ) : (
        <CreateKeys project={project} onCreated={setRevealed} />
      )}
      <section className="dash-panel" aria-labelledby="api-key-list">
        <h2 id="api-key-list">{t("keys.sets")}</h2>
        <Part label="API keys" reads={keysKey(project)}>
          <KeyList project={project} />
        </Part>
      </section>
    </>
  );
}

function CreateKeys({
  project,
  onCreated,
}: ProjectScreenProps & { onCreated: (revealed: Revealed) => void }) {
  const [chosen, setChosen] = useState<Record<KeyType, boolean>>({
    publishableClientKey: true,
    secretServerKey: true,
    superSecretAdminKey: false,
  });
  const [description, setDescription] = useState("");
  const t = useDashboardTranslation();
  const locale = useLocale();
  const [expiry, setExpiry] = useState(String(90 * DAY));
  const expiryLabel = (choice: (typeof EXPIRIES)[number]) =>
    choice.unit
      ? new Intl.NumberFormat(locale, { style: "unit", unit: choice.unit, unitDisplay: "long" }).format(
          choice.count,
        )
      : t("keys.never");
  const [errors, setErrors] = useState<{ keys?: string; description?: string }>({});

  const create = useFormAction(async () => {
    const millis = Number(expiry);
    const created = await project.app.createInternalApiKey({
      description: description.trim(),
      expiresAt: new Date(Date.now() + millis),
      hasPublishableClientKey: chosen.publishableClientKey,
      hasSecretServerKey: chosen.secretServerKey,
      hasSuperSecretAdminKey: chosen.superSecretAdminKey,
    });
    invalidate(keysKey(project));
    const keys: Revealed["keys"] = [];
    for (const type of KEY_TYPES) {
      const value = created[type.id];
      if (value) keys.push({ label: t(type.label), value, env: type.env });
    }
    onCreated({ description: created.description, keys });
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = {
      keys: KEY_TYPES.some((type) => chosen[type.id]) ? undefined : t("keys.chooseOne"),
      description: description.trim() ? undefined : t("keys.describe"),
    };
    setErrors(found);
    const form = event.currentTarget;
    if (found.keys) form.querySelector<HTMLInputElement>("input[type=checkbox]")?.focus();
    else if (found.description) form.querySelector<HTMLInputElement>("input.gh-input")?.focus();
    else void create.run();
  };

  return (
    <section className="dash-panel" aria-labelledby="create-api-keys">
      <h2 id="create-api-keys">{t("keys.create")}</h2>
      <form className="dash-form" noValidate onSubmit={onSubmit}>
        <fieldset
          className="dash-checks"
          aria-describedby={errors.keys ? "api-keys-choice-error" : undefined}
        >
          <legend>{t("keys.keys")}</legend>
          {KEY_TYPES.map((type) => (
            <label key={type.id}>
              <input
                type="checkbox"
                checked={chosen[type.id]}
                onChange={(event) => setChosen({ ...chosen, [type.id]: event.target.checked })}
              />{" "}
              {t(type.label)} <span className="dash-muted">({t(type.hint)})</span>
            </label>
          ))}
          {errors.keys && (
            <p className="gh-field-error" id="api-keys-choice-error" role="alert">
              {errors.keys}
            </p>
          )}
        </fieldset>
        <Field
          label={t("keys.description")}
          value={description}
          maxLength={256}
          placeholder={t("keys.placeholder")}
          error={errors.description}
          onChange={(event) => setDescription(event.target.value)}
        />
        <label className="dash-select">
          <span>{t("keys.expiresAfter")}</span>
          <select value={expiry} onChange={(event) => setExpiry(event.target.value)}>
            {EXPIRIES.map((choice) => (
              <option key={choice.millis} value={String(choice.millis)}>
                {expiryLabel(choice)}
              </option>
            ))}
          </select>
        </label>
        {create.error && <Alert>{create.error}</Alert>}
        <div>
          <Button type="submit" variant="primary" pending={create.pending}>
            {t("keys.create")}
          </Button>
        </div>
      </form>
    </section>
  );
}

const STATUS: Record<string, { label: DashboardKey; tone: string }> = {
  valid: { label: "keys.status.valid", tone: "dash-ok" },
  expired: { label: "keys.status.expired", tone: "dash-bad" },
  "manually-revoked": { label: "keys.status.revoked", tone: "dash-bad" },
};

function KeyList({ project }: ProjectScreenProps) {
  const sets = useQuery(keysKey(project), () => project.app.listInternalApiKeys());
  const t = useDashboardTranslation();
  if (sets.length === 0) return <Muted>{t("keys.none")}</Muted>;
  return (
    <TableScroll label={t("keys.table")}>
      <table className="dash-table">
        <TableHead
          columns={[
            t("keys.description"),
            t("keys.keys"),
            t("overview.created"),
            t("keys.col.expires"),
            t("keys.col.status"),
          ]}
          actions
        />
        <tbody>
          {[...sets]
            .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
            .map((set) => (
              <KeyRow key={set.id} project={project} set={set} />
            ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

function KeyRow({ project, set }: ProjectScreenProps & { set: ApiKeySet }) {
  const t = useDashboardTranslation();
  const status = STATUS[set.whyInvalid() ?? "valid"] ?? { label: "keys.status.revoked", tone: "dash-bad" };
  const revoke = useFormAction(async () => {
    await set.revoke();
    invalidate(keysKey(project));
  });
  return (
    <tr>
      <td>{set.description}</td>
      <td>
        <ul className="dash-plain-list">
          {KEY_TYPES.map((type) => {
            const key = set[type.id];
            return (
              key && (
                <li key={type.id}>
                  {t(type.label)}: <span className="dash-mono">…{key.lastFour}</span>
                </li>
              )
            );
          })}
        </ul>
      </td>
      <td>{dateTime(set.createdAt)}</td>
      <td>
        {set.expiresAt.getTime() - set.createdAt.getTime() > 50 * 365 * DAY
          ? t("keys.never")
          : dateTime(set.expiresAt)}
      </td>
      <td>
        <span className={`dash-badge ${status.tone}`}>{t(status.label)}</span>
      </td>
      <td>
        {set.isValid() && (
          <ConfirmButton
            label={t("keys.revoke")}
            name={t("keys.revokeName", { description: set.description })}
            question={t("keys.revokeQuestion")}
            confirmLabel={t("keys.revoke")}
            pending={revoke.pending}
            error={revoke.error}
            onConfirm={revoke.run}
          />
        )}
      </td>
    </tr>
  );
}
