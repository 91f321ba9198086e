// A user's e-mail addresses (contact channels): mark verified, make primary, remove, and add one. Primary and
// verified e-mails show in the users table too, so every change re-reads the project's users.
import { Alert, Button, Field } from "@gatehouse/react/ui";
import { type FormEvent, useState } from "react";
import { useQuery } from "../../data.ts";
import { projectKey } from "../../project.tsx";
import { ConfirmButton, TableHead, TableScroll } from "../bricks.tsx";
import { useFormAction } from "../form.ts";
import { Checkbox, focusFirst, looksLikeEmail, usersChanged } from "./bricks.tsx";
import { VerifiedBadge } from "./user-badges.tsx";
import type { UserPartProps } from "./user-page.tsx";

export function UserEmails({ project, user }: UserPartProps) {
  const channels = useQuery(projectKey(project, "users", user.id, "e-mails"), () =>
    user.listContactChannels(),
  );
  const action = useFormAction(async (change: () => Promise<void>) => {
    await change();
    usersChanged(project);
  });
  return (
    <>
      {channels.length === 0 ? (
        <p className="dash-muted">No e-mail addresses.</p>
      ) : (
        <TableScroll label="E-mail addresses table">
          <table className="dash-table">
            <TableHead columns={["E-mail", "Status", "Actions"]} />
            <tbody>
              {channels.map((channel) => (
                <tr key={channel.id}>
                  <td>{channel.value}</td>
                  <td>
                    <span className="dash-badges">
                      {channel.isPrimary && <span className="dash-badge">primary</span>}
                      <VerifiedBadge verified={channel.isVerified} />
                      {channel.usedForAuth && <span className="dash-badge">sign-in</span>}
                    </span>
                  </td>
                  <td>
                    <div className="dash-actions">
                      {!channel.isVerified && (
                        <Button
                          aria-label={`Mark verified: ${channel.value}`}
                          onClick={() => void action.run(() => channel.update({ isVerified: true }))}
                        >
                          Mark verified
                        </Button>
                      )}
                      {!channel.isPrimary && (
                        <Button
                          aria-label={`Make primary: ${channel.value}`}
                          onClick={() => void action.run(() => channel.update({ isPrimary: true }))}
                        >
                          Make primary
                        </Button>
                      )}
                      <ConfirmButton
                        label={`Remove ${channel.value}`}
                        question={`Remove ${channel.value}? The user can no longer sign in with it.`}
                        confirmLabel="Remove"
                        onConfirm={async () => {
                          await channel.delete();
                          usersChanged(project);
                        }}
                      />
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {action.error && <Alert>{action.error}</Alert>}
      <AddEmail project={project} user={user} />
    </>
  );
}

function AddEmail({ project, user }: UserPartProps) {
  const [email, setEmail] = useState("");
  const [usedForAuth, setUsedForAuth] = useState(true);
  const [verified, setVerified] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const add = useFormAction(
    async () => {
      await user.createContactChannel({ value: email.trim(), usedForAuth, isVerified: verified });
      usersChanged(project);
      setEmail("");
    },
    {
      CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE: () =>
        "Another user signs in with this e-mail: add it without “Used for sign-in”.",
    },
  );
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = !email.trim()
      ? "Enter an e-mail address."
      : looksLikeEmail(email.trim())
        ? null
        : "This is not an e-mail address.";
    setError(found);
    if (found) focusFirst(event.currentTarget, ["email"]);
    else void add.run();
  };
  return (
    <form className="dash-form dash-inline-form" noValidate onSubmit={onSubmit}>
      <Field
        label="Add an e-mail"
        name="email"
        type="email"
        autoComplete="off"
        value={email}
        error={error}
        onChange={(event) => setEmail(event.target.value)}
      />
      <Checkbox label="Used for sign-in" checked={usedForAuth} onChange={setUsedForAuth} />
      <Checkbox label="Verified" checked={verified} onChange={setVerified} />
      {add.error && <Alert>{add.error}</Alert>}
      <div>
        <Button type="submit" pending={add.pending}>
          Add e-mail
        </Button>
      </div>
    </form>
  );
}
