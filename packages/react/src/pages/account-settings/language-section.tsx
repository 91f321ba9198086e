// Language: the person's choice of language for these pages and the e-mails the server sends them, stored with the
// user (client_metadata.locale, see @gatehouse/contract's locales.ts), or "automatic" (the browser's language).
import { SUPPORTED_LOCALES, storedLocale, USER_LOCALE_METADATA_KEY } from "@gatehouse/contract/locales";
import type { CurrentUser } from "@gatehouse/sdk";
import { useId, useState } from "react";
import { useTranslation } from "../../i18n.ts";
import { Alert, Section } from "../../ui/primitives.tsx";
import { useAction } from "../../ui/use-action.ts";

/** Each language named in itself ("Deutsch", "日本語"), as a person looks for their own. */
const autonym = (locale: string) =>
  new Intl.DisplayNames([locale], { type: "language" }).of(locale) ?? locale;

export function LanguageSection({ user }: { user: CurrentUser }) {
  const t = useTranslation();
  const id = useId();
  const [saved, setSaved] = useState(false);
  const current = storedLocale(user.clientMetadata) ?? "";
  const save = useAction(async (locale: string) => {
    setSaved(false);
    // The other keys of client_metadata are the app's: keep them.
    const { [USER_LOCALE_METADATA_KEY]: _previous, ...others } = (user.clientMetadata ?? {}) as Record<
      string,
      unknown
    >;
    await user.update({
      clientMetadata: locale ? { ...others, [USER_LOCALE_METADATA_KEY]: locale } : others,
    });
    setSaved(true);
  });

  return (
    <Section title={t("account.language.title")}>
      <div className="gh-field">
        <label className="gh-label" htmlFor={id}>
          {t("account.language.label")}
        </label>
        <select
          id={id}
          className="gh-input"
          value={current}
          disabled={save.pending}
          onChange={(event) => void save.run(event.target.value)}
        >
          <option value="">{t("account.language.automatic")}</option>
          {SUPPORTED_LOCALES.map((locale) => (
            <option key={locale} value={locale} lang={locale}>
              {autonym(locale)}
            </option>
          ))}
        </select>
      </div>
      {save.error && <Alert>{save.error}</Alert>}
      {saved && !save.error && <Alert kind="success">{t("account.language.saved")}</Alert>}
    </Section>
  );
}
