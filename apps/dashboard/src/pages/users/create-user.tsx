// The form that creates a user of the project: e-mail (for sign-in), display name, an optional password, and whether
// the e-mail counts as verified. The new user shows in every list at once; a link opens their page.
import { Field } from "@gatehouse/react/ui";
import { type FormEvent, useState } from "react";
import { invalidate } from "../../data.ts";
import { useDashboardTranslation } from "../../messages.ts";
import { type ProjectScreenProps, projectKey } from "../../project.tsx";
import { useFormAction } from "../form.ts";
import { Checkbox, CreatePanel, checked, looksLikeEmail } from "./bricks.tsx";

type Errors = { email?: string; password?: string };

export function CreateUser({ project, onClose }: ProjectScreenProps & { onClose: () => void }) {
  const t = useDashboardTranslation();
  const [email, setEmail] = useState("");
  const [displayName, setDisplayName] = useState("");
  const [password, setPassword] = useState("");
  const [verified, setVerified] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [created, setCreated] = useState<{ to: string; name: string } | null>(null);
  const create = useFormAction(
    async () => {
      const user = await project.app.createUser({
        primaryEmail: email.trim(),
        primaryEmailVerified: verified,
        primaryEmailAuthEnabled: true,
        displayName: displayName.trim() || null,
        password: password || undefined,
      });
      invalidate(projectKey(project, "users"));
      setCreated({ to: `/projects/${project.id}/users/${user.id}`, name: user.displayName || email.trim() });
      setEmail("");
      setDisplayName("");
      setPassword("");
      setVerified(false);
    },
    { USER_EMAIL_ALREADY_EXISTS: () => t("users.emailTaken") },
  );

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found: Errors = {};
    if (!email.trim()) found.email = t("users.emailMissing");
    else if (!looksLikeEmail(email.trim())) found.email = t("users.emailInvalid");
    if (password && password.length < 8) found.password = t("users.passwordShort");
    else if (password.length > 256) found.password = t("users.passwordLong");
    setErrors(found);
    setCreated(null);
    checked(event.currentTarget, found, () => void create.run());
  };

  return (
    <CreatePanel
      id="create-user"
      title={t("users.new")}
      submit={t("users.create")}
      action={create}
      created={created}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <Field
        label={t("users.email")}
        name="email"
        type="email"
        autoComplete="off"
        value={email}
        error={errors.email}
        onChange={(event) => setEmail(event.target.value)}
      />
      <Field
        label={t("users.displayNameOptional")}
        name="displayName"
        value={displayName}
        maxLength={256}
        onChange={(event) => setDisplayName(event.target.value)}
      />
      <Field
        label={t("users.passwordOptional")}
        name="password"
        type="password"
        autoComplete="new-password"
        value={password}
        error={errors.password}
        hint={t("users.passwordHint")}
        onChange={(event) => setPassword(event.target.value)}
      />
      <Checkbox label={t("users.emailVerified")} checked={verified} onChange={setVerified} />
    </CreatePanel>
  );
}
