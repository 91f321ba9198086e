// Multi-factor: turning on a TOTP second factor (a fresh secret made here, shown as a QR code and as text, saved only
// once the person proves their app produces the right code) and turning it off (confirmed); recovery codes, made
// and shown once right after turning it on, and made anew on request (confirmed: the old ones stop working).
import type { CurrentUser } from "@gatehouse/sdk";
import { type FormEvent, useEffect, useState } from "react";
import { useProject } from "../../hooks.ts";
import { useTranslation } from "../../i18n.ts";
import { ConfirmButton } from "../../ui/confirm-button.tsx";
import { Alert, Button, Field, Muted, Section } from "../../ui/primitives.tsx";
import { useAction } from "../../ui/use-action.ts";
import { base32Encode, otpauthUri, verifyTotp } from "./totp.ts";

/** 20 bytes: the RFC 4226 recommended length of an HMAC-SHA1 key. */
const SECRET_BYTES = 20;

export function MfaSection({ user }: { user: CurrentUser }) {
  const t = useTranslation();
  const [secret, setSecret] = useState<Uint8Array | null>(null);
  const [turnedOn, setTurnedOn] = useState(false);
  // Recovery codes just made: shown until the person closes them, never again.
  const [codes, setCodes] = useState<string[] | null>(null);
  const turnOff = useAction(async () => {
    setTurnedOn(false);
    setCodes(null);
    await user.update({ totpMultiFactorSecret: null });
  });
  const generate = useAction(async () => {
    setCodes(await user.generateRecoveryCodes());
  });
  // The server tells whether a secret is set (requires_totp_mfa); otpAuthEnabled is e-mail code sign-in.
  const enabled = user.isMultiFactorRequired;

  return (
    <Section title={t("account.mfa.title")}>
      <Muted>{enabled ? t("account.mfa.on") : t("account.mfa.off")}</Muted>
      {turnedOn && enabled && <Alert kind="success">{t("account.mfa.turnedOn")}</Alert>}
      {enabled && codes && <RecoveryCodes codes={codes} onClose={() => setCodes(null)} />}
      {enabled && (
        <ConfirmButton
          label={t("account.mfa.recovery.generate")}
          question={t("account.mfa.recovery.generateQuestion")}
          pending={generate.pending}
          onConfirm={generate.run}
        />
      )}
      {generate.error && <Alert>{generate.error}</Alert>}
      {enabled ? (
        <ConfirmButton
          label={t("account.mfa.turnOff")}
          question={t("account.mfa.turnOffQuestion")}
          pending={turnOff.pending}
          onConfirm={turnOff.run}
        />
      ) : secret ? (
        <TotpSetup
          user={user}
          secret={secret}
          onCancel={() => setSecret(null)}
          onDone={() => {
            setSecret(null);
            setTurnedOn(true);
            void generate.run();
          }}
        />
      ) : (
        <div className="gh-row">
          <Button onClick={() => setSecret(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)))}>
            {t("account.mfa.setUp")}
          </Button>
        </div>
      )}
      {turnOff.error && <Alert>{turnOff.error}</Alert>}
    </Section>
  );
}

type SetupProps = { user: CurrentUser; secret: Uint8Array; onCancel: () => void; onDone: () => void };

function TotpSetup({ user, secret, onCancel, onDone }: SetupProps) {
  const t = useTranslation();
  const project = useProject();
  const [code, setCode] = useState("");
  const [codeError, setCodeError] = useState<string | null>(null);
  const uri = otpauthUri({ secret, issuer: project.displayName, label: user.primaryEmail ?? user.id });
  const qr = useQrCode(uri);
  const text = base32Encode(secret).replace(/(.{4})(?=.)/g, "$1 ");

  const save = useAction(async (value: string, input: HTMLInputElement | null) => {
    if (!(await verifyTotp(secret, value, Date.now()))) {
      setCodeError(t("account.mfa.wrongCode"));
      input?.focus();
      return;
    }
    await user.update({ totpMultiFactorSecret: secret });
    onDone();
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const input = event.currentTarget.querySelector("input");
    const value = code.replace(/\s/g, "");
    const error = /^\d{6}$/.test(value) ? null : t("account.mfa.codeFormat");
    setCodeError(error);
    if (error) input?.focus();
    else void save.run(value, input);
  };

  return (
    <form className="gh-stack" noValidate onSubmit={onSubmit}>
      <Muted>{t("account.mfa.scan")}</Muted>
      <div className="gh-qr">{qr && <img src={qr} alt={t("account.mfa.qrAlt")} />}</div>
      <Muted>{t("account.mfa.orEnter")}</Muted>
      <p className="gh-code">{text}</p>
      <Field
        label={t("account.mfa.code")}
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={7}
        value={code}
        error={codeError}
        onChange={(event) => setCode(event.target.value)}
      />
      {save.error && <Alert>{save.error}</Alert>}
      <div className="gh-row">
        <Button type="submit" variant="primary" pending={save.pending}>
          {t("account.mfa.confirm")}
        </Button>
        <Button onClick={onCancel}>{t("common.cancel")}</Button>
      </div>
    </form>
  );
}

/**
 * The QR code of `text` as an SVG data URL, null until drawn. The QR encoder (uqr, 4.5 KB of the pages' first
 * load when gzipped) is loaded when a person sets up an authenticator, not with every page.
 */
function useQrCode(text: string): string | null {
  const [qr, setQr] = useState<{ text: string; url: string } | null>(null);
  useEffect(() => {
    let current = true;
    void import("uqr").then(({ renderSVG }) => {
      const url = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(renderSVG(text))}`;
      if (current) setQr({ text, url });
    });
    return () => {
      current = false;
    };
  }, [text]);
  return qr?.text === text ? qr.url : null;
}

/** Fresh recovery codes: listed in a monospace block, to copy (where the browser allows) or download as text. */
function RecoveryCodes({ codes, onClose }: { codes: string[]; onClose: () => void }) {
  const t = useTranslation();
  const text = `${codes.join("\n")}\n`;
  const [copied, setCopied] = useState<boolean | null>(null);
  const [href, setHref] = useState<string | null>(null);
  useEffect(() => {
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    setHref(url);
    setCopied(null);
    return () => URL.revokeObjectURL(url);
  }, [text]);
  const canCopy = typeof navigator !== "undefined" && navigator.clipboard !== undefined;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };

  return (
    <div className="gh-stack">
      <h3 className="gh-label">{t("account.mfa.recovery.title")}</h3>
      <Muted>{t("account.mfa.recovery.explain")}</Muted>
      <ul className="gh-list gh-code" aria-label={t("account.mfa.recovery.title")}>
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="gh-row">
        {canCopy && <Button onClick={copy}>{t("account.mfa.recovery.copy")}</Button>}
        {href && (
          <a className="gh-button" href={href} download="recovery-codes.txt">
            {t("account.mfa.recovery.download")}
          </a>
        )}
        <Button onClick={onClose}>{t("account.mfa.recovery.done")}</Button>
      </div>
      {copied === true && <Alert kind="success">{t("account.mfa.recovery.copied")}</Alert>}
      {copied === false && <Alert>{t("account.mfa.recovery.copyFailed")}</Alert>}
    </div>
  );
}
