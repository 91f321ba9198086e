// E-mails: the user's contact channels with what each is (primary, verified, used for sign-in), adding one, and per
// address: send a verification e-mail, make primary, use for sign-in or not, remove (confirmed).
import type { ContactChannel, CurrentUser } from "@gatehouse/sdk";
import { type FormEvent, useState } from "react";
import { useContactChannels } from "../../hooks.ts";
import { useTranslation } from "../../i18n.ts";
import { ConfirmButton } from "../../ui/confirm-button.tsx";
import { Alert, Button, Field, Section } from "../../ui/primitives.tsx";
import { type ErrorTexts, useAction } from "../../ui/use-action.ts";
import { isEmail } from "./form.ts";

const CHANNEL_ERRORS: ErrorTexts = {
  CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE: "account.emails.usedBySomeoneElse",
  EMAIL_ALREADY_VERIFIED: "account.emails.alreadyVerified",
};

export function EmailsSection({ user }: { user: CurrentUser }) {
  const t = useTranslation();
  const channels = useContactChannels();
  const [email, setEmail] = useState("");
  const [emailError, setEmailError] = useState<string | null>(null);
  const add = useAction(async (value: string) => {
    await user.createContactChannel({ type: "email", value, usedForAuth: false });
    setEmail("");
  }, CHANNEL_ERRORS);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = email.trim();
    const error = !value
      ? t("common.required")
      : !isEmail(value)
        ? t("common.invalidEmail")
        : channels.some((channel) => channel.value.toLowerCase() === value.toLowerCase())
          ? t("account.emails.alreadyAdded")
          : null;
    setEmailError(error);
    if (error) event.currentTarget.querySelector("input")?.focus();
    else void add.run(value);
  };

  return (
    <Section title={t("account.emails.title")}>
      {channels.length === 0 ? (
        <p className="gh-muted">{t("account.emails.none")}</p>
      ) : (
        <ul className="gh-list">
          {channels.map((channel) => (
            <ChannelItem key={channel.id} channel={channel} />
          ))}
        </ul>
      )}
      <form className="gh-stack" noValidate onSubmit={onSubmit}>
        <Field
          label={t("account.emails.add")}
          type="email"
          name="email"
          autoComplete="email"
          value={email}
          error={emailError}
          onChange={(event) => setEmail(event.target.value)}
        />
        {add.error && <Alert>{add.error}</Alert>}
        <div className="gh-row">
          <Button type="submit" pending={add.pending}>
            {t("account.emails.addButton")}
          </Button>
        </div>
      </form>
    </Section>
  );
}

function ChannelItem({ channel }: { channel: ContactChannel }) {
  const t = useTranslation();
  const [sent, setSent] = useState(false);
  const verify = useAction(async () => {
    await channel.sendVerificationEmail();
    setSent(true);
  }, CHANNEL_ERRORS);
  const makePrimary = useAction(() => channel.update({ isPrimary: true }), CHANNEL_ERRORS);
  const toggleAuth = useAction(() => channel.update({ usedForAuth: !channel.usedForAuth }), CHANNEL_ERRORS);
  const remove = useAction(() => channel.delete(), CHANNEL_ERRORS);
  const error = verify.error ?? makePrimary.error ?? toggleAuth.error ?? remove.error;

  return (
    <li className="gh-list-item">
      <div className="gh-stack">
        <div className="gh-row">
          <span className="gh-text">{channel.value}</span>
          {channel.isPrimary && <span className="gh-badge">{t("account.emails.primary")}</span>}
          <span className="gh-badge">
            {channel.isVerified ? t("account.emails.verified") : t("account.emails.unverified")}
          </span>
          {channel.usedForAuth && <span className="gh-badge">{t("account.emails.usedForAuth")}</span>}
        </div>
        <div className="gh-row">
          {!channel.isVerified && (
            <Button pending={verify.pending} onClick={() => void verify.run()}>
              {t("account.emails.sendVerification")}
            </Button>
          )}
          {!channel.isPrimary && (
            <Button pending={makePrimary.pending} onClick={() => void makePrimary.run()}>
              {t("account.emails.makePrimary")}
            </Button>
          )}
          <Button pending={toggleAuth.pending} onClick={() => void toggleAuth.run()}>
            {channel.usedForAuth ? t("account.emails.stopUsingForAuth") : t("account.emails.useForAuth")}
          </Button>
          <ConfirmButton
            label={t("account.emails.remove")}
            question={t("account.emails.removeQuestion", { email: channel.value })}
            pending={remove.pending}
            onConfirm={remove.run}
          />
        </div>
        {sent && <Alert kind="success">{t("account.emails.verificationSent")}</Alert>}
        {error && <Alert>{error}</Alert>}
      </div>
    </li>
  );
}
