// The project's API keys: create a key set (which keys, description, expiry) whose full keys are shown once
// (api-key-reveal.tsx), and the list of sets with the last four characters of each key, their status, revocation.
import type { ApiKeySet } from "@gatehouse/react";
import { Alert, Button, Field, Muted } from "@gatehouse/react/ui";
import { type FormEvent, useState } from "react";
import { invalidate, useQuery } from "../data.ts";
import { ScreenHeader } from "../layout.tsx";
import { type ProjectScreenProps, projectKey } from "../project.tsx";
import { Reveal, type Revealed } from "./api-key-reveal.tsx";
import { ConfirmButton, Part, TableHead, TableScroll } from "./bricks.tsx";
import { dateTime } from "./delivery/confirm.tsx";
import { useFormAction } from "./form.ts";

/** The key types, with the environment variable an app reads each from (Stack Auth's names). */
const KEY_TYPES = [
  {
    id: "publishableClientKey",
    label: "Publishable client key",
    hint: "for browsers and apps",
    env: "NEXT_PUBLIC_STACK_PUBLISHABLE_CLIENT_KEY",
  },
  {
    id: "secretServerKey",
    label: "Secret server key",
    hint: "for your servers only",
    env: "STACK_SECRET_SERVER_KEY",
  },
  {
    id: "superSecretAdminKey",
    label: "Super secret admin key",
    hint: "administers the project",
    env: "STACK_SUPER_SECRET_ADMIN_KEY",
  },
] as const;
type KeyType = (typeof KEY_TYPES)[number]["id"];

const DAY = 24 * 3600 * 1000;
/** Expiry choices; "never" is a hundred years away (the server needs a date). */
const EXPIRIES = [
  { label: "1 day", millis: DAY },
  { label: "7 days", millis: 7 * DAY },
  { label: "30 days", millis: 30 * DAY },
  { label: "90 days", millis: 90 * DAY },
  { label: "1 year", millis: 365 * DAY },
  { label: "Never", millis: 100 * 365 * DAY },
];

const keysKey = (project: { id: string }) => projectKey(project, "api-keys");

export function ApiKeysPage({ project }: ProjectScreenProps) {
  const [revealed, setRevealed] = useState<Revealed | null>(null);
  return (
    <>
      <ScreenHeader title="API keys" />
      {revealed ? (
        <Reveal project={project} revealed={revealed} onDone={() => setRevealed(null)} />
      ) : (
        <CreateKeys project={project} onCreated={setRevealed} />
      )}
      <section className="dash-panel" aria-labelledby="api-key-list">
        <h2 id="api-key-list">Key sets</h2>
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
  const [expiry, setExpiry] = useState(EXPIRIES[3]?.label ?? "90 days");
  const [errors, setErrors] = useState<{ keys?: string; description?: string }>({});

  const create = useFormAction(async () => {
    const millis = EXPIRIES.find((e) => e.label === expiry)?.millis ?? 90 * DAY;
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
      if (value) keys.push({ label: type.label, value, env: type.env });
    }
    onCreated({ description: created.description, keys });
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = {
      keys: KEY_TYPES.some((type) => chosen[type.id]) ? undefined : "Choose at least one key.",
      description: description.trim() ? undefined : "Describe what the keys are for.",
    };
    setErrors(found);
    const form = event.currentTarget;
    if (found.keys) form.querySelector<HTMLInputElement>("input[type=checkbox]")?.focus();
    else if (found.description) form.querySelector<HTMLInputElement>("input.gh-input")?.focus();
    else void create.run();
  };

  return (
    <section className="dash-panel" aria-labelledby="create-api-keys">
      <h2 id="create-api-keys">Create keys</h2>
      <form className="dash-form" noValidate onSubmit={onSubmit}>
        <fieldset
          className="dash-checks"
          aria-describedby={errors.keys ? "api-keys-choice-error" : undefined}
        >
          <legend>Keys</legend>
          {KEY_TYPES.map((type) => (
            <label key={type.id}>
              <input
                type="checkbox"
                checked={chosen[type.id]}
                onChange={(event) => setChosen({ ...chosen, [type.id]: event.target.checked })}
              />{" "}
              {type.label} <span className="dash-muted">({type.hint})</span>
            </label>
          ))}
          {errors.keys && (
            <p className="gh-field-error" id="api-keys-choice-error" role="alert">
              {errors.keys}
            </p>
          )}
        </fieldset>
        <Field
          label="Description"
          value={description}
          maxLength={256}
          placeholder="Production web server"
          error={errors.description}
          onChange={(event) => setDescription(event.target.value)}
        />
        <label className="dash-select">
          <span>Expires after</span>
          <select value={expiry} onChange={(event) => setExpiry(event.target.value)}>
            {EXPIRIES.map((e) => (
              <option key={e.label}>{e.label}</option>
            ))}
          </select>
        </label>
        {create.error && <Alert>{create.error}</Alert>}
        <div>
          <Button type="submit" variant="primary" pending={create.pending}>
            Create keys
          </Button>
        </div>
      </form>
    </section>
  );
}

const STATUS = {
  valid: { label: "Valid", tone: "dash-ok" },
  expired: { label: "Expired", tone: "dash-bad" },
  "manually-revoked": { label: "Revoked", tone: "dash-bad" },
};

function KeyList({ project }: ProjectScreenProps) {
  const sets = useQuery(keysKey(project), () => project.app.listInternalApiKeys());
  if (sets.length === 0) return <Muted>No API keys yet.</Muted>;
  return (
    <TableScroll label="API keys table">
      <table className="dash-table">
        <TableHead columns={["Description", "Keys", "Created", "Expires", "Status"]} actions />
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
  const status = STATUS[set.whyInvalid() ?? "valid"];
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
                  {type.label}: <span className="dash-mono">…{key.lastFour}</span>
                </li>
              )
            );
          })}
        </ul>
      </td>
      <td>{dateTime(set.createdAt)}</td>
      <td>
        {set.expiresAt.getTime() - set.createdAt.getTime() > 50 * 365 * DAY
          ? "Never"
          : dateTime(set.expiresAt)}
      </td>
      <td>
        <span className={`dash-badge ${status.tone}`}>{status.label}</span>
      </td>
      <td>
        {set.isValid() && (
          <ConfirmButton
            label="Revoke"
            name={`Revoke ${set.description}`}
            question="Revoke these keys for good?"
            confirmLabel="Revoke"
            pending={revoke.pending}
            error={revoke.error}
            onConfirm={revoke.run}
          />
        )}
      </td>
    </tr>
  );
}
