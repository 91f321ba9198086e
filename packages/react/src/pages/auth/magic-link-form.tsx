// Sign-in by e-mail: sends a message with a link and a 6-character code, then takes the code here. The typed code
// is sent as `otp.toLowerCase() + nonce` (the nonce the send answered), which signs in as the link would.
import { type FormEvent, useState } from "react";
import { useTranslation } from "../../i18n.ts";
import { useStackApp } from "../../provider.tsx";
import { Alert, Field, LinkButton } from "../../ui/primitives.tsx";
import { type ErrorTexts, useAction } from "../../ui/use-action.ts";
import { BOT_CHALLENGE_ERROR_TEXTS, useBotChallenge } from "./bot-challenge.tsx";
import { EmailField, SubmitWithError, useEmailForm } from "./fields.tsx";
import { finishOrMfa, SIGN_IN_ERROR_TEXTS } from "./shared.ts";

const SEND_ERROR_TEXTS: ErrorTexts = {
  ...SIGN_IN_ERROR_TEXTS,
  ...BOT_CHALLENGE_ERROR_TEXTS,
  USER_EMAIL_ALREADY_EXISTS: "auth.emailExistsUnverified",
};

const CODE_TEXTS: ErrorTexts = {
  VERIFICATION_CODE_NOT_FOUND: "auth.magicLink.wrongCode",
  VERIFICATION_CODE_EXPIRED: "auth.magicLink.wrongCode",
  VERIFICATION_CODE_ALREADY_USED: "auth.magicLink.wrongCode",
  VERIFICATION_CODE_MAX_ATTEMPTS_REACHED: "auth.code.maxAttempts",
};

export function MagicLinkForm({ onMfa }: { onMfa: (attemptCode: string) => void }) {
  const t = useTranslation();
  const app = useStackApp();
  const [sent, setSent] = useState<{ email: string; nonce: string } | null>(null);
  const [otp, setOtp] = useState("");
  const [otpError, setOtpError] = useState<string | null>(null);
  const bot = useBotChallenge();

  const send = useAction(async (address: string) => {
    // The token passes once: whatever the answer, another send needs a new one.
    const result = await app.sendMagicLinkEmail(address, { botChallenge: bot.answer() }).finally(bot.used);
    if (result.status === "error") throw result.error;
    setOtp("");
    setOtpError(null);
    setSent({ email: address, nonce: result.data.nonce });
  }, SEND_ERROR_TEXTS);

  const signIn = useAction(async (code: string, nonce: string) => {
    finishOrMfa(await app.signInWithMagicLink(code.toLowerCase() + nonce), onMfa);
  }, CODE_TEXTS);

  const { formRef, focusInvalid, submitEmail, emailField } = useEmailForm(
    (address) => bot.ready() && void send.run(address),
  );

  const submitCode = (event: FormEvent) => {
    event.preventDefault();
    if (!sent) return;
    const code = otp.trim();
    const problem = code.length === 6 ? null : t("auth.magicLink.codeInvalid");
    setOtpError(problem);
    if (problem) focusInvalid();
    else void signIn.run(code, sent.nonce);
  };

  if (sent) {
    return (
      <form ref={formRef} className="gh-stack" noValidate onSubmit={submitCode}>
        <Alert kind="info">{t("auth.magicLink.sent", { email: sent.email })}</Alert>
        <Field
          label={t("auth.magicLink.code")}
          hint={t("auth.magicLink.codeHint")}
          name="otp"
          autoComplete="one-time-code"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={6}
          value={otp}
          onChange={(event) => setOtp(event.target.value)}
          error={otpError}
        />
        <SubmitWithError error={signIn.error} pending={signIn.pending}>
          {t("auth.signIn.submit")}
        </SubmitWithError>
        <LinkButton onClick={() => setSent(null)}>{t("auth.magicLink.otherEmail")}</LinkButton>
      </form>
    );
  }

  return (
    <form ref={formRef} className="gh-stack" noValidate onSubmit={submitEmail}>
      <EmailField {...emailField} />
      {bot.element}
      <SubmitWithError error={send.error} pending={send.pending}>
        {t("auth.magicLink.send")}
      </SubmitWithError>
    </form>
  );
}
