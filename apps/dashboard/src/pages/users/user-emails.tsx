// A user's e-mail addresses (contact channels): mark verified, make primary, remove, and add one. Primary and
// verified e-mails show in the users table too, so every change re-reads the project's users.
import { Alert, Button, Field } from "@gatehouse/react/ui";
import { type FormEvent, useState } from "react";
import { useQuery } from "../../data.ts";
import { useDashboardTranslation } from "../../messages.ts";
import { projectKey } from "../../project.tsx";
import { ConfirmButton, TableHead, TableScroll } from "../bricks.tsx";
import { useFormAction } from "../form.ts";
import { Checkbox, focusFirst, looksLikeEmail, usersChanged } from "./bricks.tsx";
import { VerifiedBadge } from "./user-badges.tsx";
import type { UserPartProps } from "./user-page.tsx";

export function UserEmails({ project, user }: UserPartProps) {
  const t = useDashboardTranslation();
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
        <p className="dash-muted">{t("emails.none")}</p>
      ) : (
        <TableScroll label={t("emails.table")}>
          <table className="dash-table">
            <TableHead columns={[t("users.email"), t("users.col.status"), t("users.col.actions")]} />
            <tbody>
              {channels.map((channel) => (
                <tr key={channel.id}>
                  <td>{channel.value}</td>
                  <td>
                    <span className="dash-badges">
                      {channel.isPrimary && <span className="dash-badge">{t("emails.primary")}</span>}
                      <VerifiedBadge verified={channel.isVerified} />
                      {channel.usedForAuth && <span className="dash-badge">{t("emails.signIn")}</span>}
                    </span>
                  </td>
                  <td>
                    <div className="dash-actions">
                      {!channel.isVerified && (
                        <Button
                          aria-label={t("emails.markVerifiedName", { email: channel.value })}
                          onClick={() => void action.run(() => channel.update({ isVerified: true }))}
                        >
                          {t("emails.markVerified")}
                        </Button>
                      )}
                      {!channel.isPrimary && (
                        <Button
                          aria-label={t("emails.makePrimaryName", { email: channel.value })}
                          onClick={() => void action.run(() => channel.update({ isPrimary: true }))}
                        >
                          {t("emails.makePrimary")}
                        </Button>
                      )}
                      <ConfirmButton
                        label={t("emails.removeName", { email: channel.value })}
                        question={t("emails.removeQuestion", { email: channel.value })}
                        confirmLabel={t("auth.remove")}
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
  const t = useDashboardTranslation();
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
      CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE: () => t("emails.usedElsewhere"),
    },
  );
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = !email.trim()
      ? t("emails.enter")
      : looksLikeEmail(email.trim())
        ? null
        : t("users.emailInvalid");
    setError(found);
    if (found) focusFirst(event.currentTarget, ["email"]);
    else void add.run();
  };
  return (
    <form className="dash-form dash-inline-form" noValidate onSubmit={onSubmit}>
      <Field
        label={t("emails.add")}
        name="email"
        type="email"
        autoComplete="off"
        value={email}
        error={error}
        onChange={(event) => setEmail(event.target.value)}
      />
      <Checkbox label={t("emails.usedForSignIn")} checked={usedForAuth} onChange={setUsedForAuth} />
      <Checkbox label={t("emails.verified")} checked={verified} onChange={setVerified} />
      {add.error && <Alert>{add.error}</Alert>}
      <div>
        <Button type="submit" pending={add.pending}>
          {t("emails.addButton")}
        </Button>
      </div>
    </form>
  );
}
