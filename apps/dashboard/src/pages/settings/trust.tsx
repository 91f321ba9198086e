// Trust & safety (issue 21): the project's password rules (breached-password check and its range service, the
// zxcvbn minimum) and bot protection (mode, Turnstile site key, a write-only secret, verify and widget script URLs);
// trust-claims.tsx has the new-device e-mail, the access-token claims and the audit settings.
import type { OwnedProject } from "@gatehouse/react";
import { Alert, Button, Field } from "@gatehouse/react/ui";
import { type FormEvent, useId, useState } from "react";
import { ScreenHeader } from "../../layout.tsx";
import { type DashboardKey, useDashboardTranslation } from "../../messages.ts";
import type { ProjectScreenProps } from "../../project.tsx";
import { useFormAction } from "../form.ts";
import { isHttpUrl } from "./oauth-catalogue.ts";
import { saveProject, useProjectSettings } from "./project-settings.ts";
import { AccessTokenClaims, AuditSettings, NewDeviceNotice } from "./trust-claims.tsx";

/** The admin view's trust keys, in the SDK's camelCase. */
export type TrustConfig = {
  passwordBreachCheck: "off" | "list" | "range";
  passwordBreachRangeUrl: string | null;
  passwordMinStrength: number | null;
  botProtection: "off" | "always" | "suspicious";
  botProtectionSiteKey: string | null;
  botProtectionSecret: string | null;
  botProtectionVerifyUrl: string | null;
  botProtectionScriptUrl: string | null;
  accessTokenClaims: unknown;
  auditLogRetentionDays: number | null;
  auditLogWebhooks: boolean;
  newDeviceNoticeEnabled: boolean;
};

export const useTrustConfig = (project: OwnedProject) =>
  useProjectSettings(project).config as unknown as TrustConfig;

/** An optional URL field's value as sent: null when empty; `false` when it is not an http(s) address. */
const urlOrNull = (text: string): string | null | false =>
  text.trim() === "" ? null : isHttpUrl(text.trim()) ? text.trim() : false;

export function TrustPage({ project }: ProjectScreenProps) {
  const t = useDashboardTranslation();
  const sections: [string, DashboardKey, React.ReactNode][] = [
    ["trust-passwords", "trust.passwords", <PasswordRules key="p" project={project} />],
    ["trust-bot", "trust.bot", <BotProtection key="b" project={project} />],
    ["trust-device", "trust.newDevice", <NewDeviceNotice key="d" project={project} />],
    ["trust-claims", "trust.claims", <AccessTokenClaims key="c" project={project} />],
    ["trust-audit", "trust.audit", <AuditSettings key="a" project={project} />],
  ];
  return (
    <>
      <ScreenHeader title={t("trust.title")} />
      {sections.map(([id, title, body]) => (
        <section key={id} className="dash-panel dash-stack" aria-labelledby={id}>
          <h2 id={id}>{t(title)}</h2>
          {body}
        </section>
      ))}
    </>
  );
}

/** A labelled select whose options are [value, text key] pairs. */
function Choice<V extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: V;
  options: [V, string][];
  onChange: (value: V) => void;
}) {
  const id = useId();
  return (
    <label className="dash-select" htmlFor={id}>
      {label}
      <select id={id} value={value} onChange={(event) => onChange(event.target.value as V)}>
        {options.map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

function PasswordRules({ project }: { project: OwnedProject }) {
  const t = useDashboardTranslation();
  const config = useTrustConfig(project);
  const [check, setCheck] = useState(config.passwordBreachCheck);
  const [rangeUrl, setRangeUrl] = useState(config.passwordBreachRangeUrl ?? "");
  const [strength, setStrength] = useState(String(config.passwordMinStrength ?? ""));
  const [urlError, setUrlError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const save = useFormAction(async (url: string | null) => {
    await saveProject(project, {
      config: {
        passwordBreachCheck: check,
        passwordBreachRangeUrl: url,
        passwordMinStrength: strength === "" ? null : Number(strength),
      },
    });
    setSaved(true);
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const url = urlOrNull(rangeUrl);
    setUrlError(url === false ? t("trust.err.url") : null);
    if (url !== false) void save.run(url);
  };
  return (
    <form className="dash-form" noValidate onSubmit={submit} aria-label={t("trust.passwords")}>
      <Choice
        label={t("trust.breachCheck")}
        value={check}
        onChange={setCheck}
        options={[
          ["off", t("trust.breach.off")],
          ["list", t("trust.breach.list")],
          ["range", t("trust.breach.range")],
        ]}
      />
      {check === "range" && (
        <Field
          label={t("trust.rangeUrl")}
          hint={t("trust.rangeUrlHint")}
          name="rangeUrl"
          value={rangeUrl}
          onChange={(event) => setRangeUrl(event.target.value)}
          error={urlError}
        />
      )}
      <Choice
        label={t("trust.minStrength")}
        value={strength}
        onChange={setStrength}
        options={[
          ["", t("trust.strength.none")],
          ...["1", "2", "3", "4"].map((n): [string, string] => [n, t("trust.strength.n", { n })]),
        ]}
      />
      {save.error && <Alert>{save.error}</Alert>}
      {saved && <Alert kind="success">{t("trust.saved")}</Alert>}
      <div>
        <Button type="submit" pending={save.pending}>
          {t("trust.savePasswords")}
        </Button>
      </div>
    </form>
  );
}

type BotErrors = Partial<Record<"keys" | "verifyUrl" | "scriptUrl", string>>;

function BotProtection({ project }: { project: OwnedProject }) {
  const t = useDashboardTranslation();
  const config = useTrustConfig(project);
  const [mode, setMode] = useState(config.botProtection);
  const [siteKey, setSiteKey] = useState(config.botProtectionSiteKey ?? "");
  // Write-only: the stored secret is never put on the page; a new one replaces it, empty keeps it.
  const [secret, setSecret] = useState("");
  const [verifyUrl, setVerifyUrl] = useState(config.botProtectionVerifyUrl ?? "");
  const [scriptUrl, setScriptUrl] = useState(config.botProtectionScriptUrl ?? "");
  const [errors, setErrors] = useState<BotErrors>({});
  const [saved, setSaved] = useState(false);
  const hasSecret = config.botProtectionSecret !== null;
  const save = useFormAction(async (urls: { verify: string | null; script: string | null }) => {
    await saveProject(project, {
      config: {
        botProtection: mode,
        botProtectionSiteKey: siteKey.trim() || null,
        ...(secret ? { botProtectionSecret: secret } : {}),
        botProtectionVerifyUrl: urls.verify,
        botProtectionScriptUrl: urls.script,
      },
    });
    setSecret("");
    setSaved(true);
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const verify = urlOrNull(verifyUrl);
    const script = urlOrNull(scriptUrl);
    const found: BotErrors = {};
    if (mode !== "off" && (!siteKey.trim() || (!secret && !hasSecret))) found.keys = t("trust.err.keys");
    if (verify === false) found.verifyUrl = t("trust.err.url");
    if (script === false) found.scriptUrl = t("trust.err.url");
    setErrors(found);
    if (verify !== false && script !== false && !found.keys) void save.run({ verify, script });
  };
  return (
    <form className="dash-form" noValidate onSubmit={submit} aria-label={t("trust.bot")}>
      <Choice
        label={t("trust.botMode")}
        value={mode}
        onChange={setMode}
        options={[
          ["off", t("trust.bot.off")],
          ["always", t("trust.bot.always")],
          ["suspicious", t("trust.bot.suspicious")],
        ]}
      />
      <Field
        label={t("trust.siteKey")}
        name="siteKey"
        autoComplete="off"
        value={siteKey}
        onChange={(event) => setSiteKey(event.target.value)}
      />
      <Field
        label={t("trust.secret")}
        hint={t(hasSecret ? "trust.secretSet" : "trust.secretNone")}
        name="secret"
        type="password"
        autoComplete="off"
        value={secret}
        onChange={(event) => setSecret(event.target.value)}
        error={errors.keys}
      />
      <Field
        label={t("trust.verifyUrl")}
        hint={t("trust.verifyUrlHint")}
        name="verifyUrl"
        value={verifyUrl}
        onChange={(event) => setVerifyUrl(event.target.value)}
        error={errors.verifyUrl}
      />
      <Field
        label={t("trust.scriptUrl")}
        hint={t("trust.scriptUrlHint")}
        name="scriptUrl"
        value={scriptUrl}
        onChange={(event) => setScriptUrl(event.target.value)}
        error={errors.scriptUrl}
      />
      {save.error && <Alert>{save.error}</Alert>}
      {saved && <Alert kind="success">{t("trust.saved")}</Alert>}
      <div>
        <Button type="submit" pending={save.pending}>
          {t("trust.saveBot")}
        </Button>
      </div>
    </form>
  );
}
