// The locale tables and translators, without React: shared by the pages' hooks (i18n.ts), the dashboard, and tests
// that run outside a browser (the e2e suites' expected texts). The rules for overrides are at the top of i18n.ts.
import { pickLocale, type SupportedLocale } from "@gatehouse/contract/locales";
import { formatMessage, type MessageVars } from "./format.ts";
import { ar } from "./locales/ar.ts";
import { de } from "./locales/de.ts";
import { es } from "./locales/es.ts";
import { fr } from "./locales/fr.ts";
import { it } from "./locales/it.ts";
import { ja } from "./locales/ja.ts";
import { ko } from "./locales/ko.ts";
import { nl } from "./locales/nl.ts";
import { pl } from "./locales/pl.ts";
import { ptBR } from "./locales/pt-BR.ts";
import { zhHans } from "./locales/zh-Hans.ts";
import { zhHant } from "./locales/zh-Hant.ts";
import { en, type LocaleTable, type MessageKey, type Messages } from "./messages/en.ts";

export type { MessageKey, Messages };

/** Every supported locale's table; English is the source and the fallback. */
export const LOCALE_TABLES: Record<SupportedLocale, LocaleTable> = {
  en,
  de,
  fr,
  es,
  "pt-BR": ptBR,
  it,
  ja,
  ko,
  "zh-Hans": zhHans,
  "zh-Hant": zhHant,
  nl,
  pl,
  ar,
};

/** Variables named `{name}` in a text are replaced by `vars.name`; see format.ts for plurals and numbers. */
export type Translate = (key: MessageKey, vars?: MessageVars) => string;

/**
 * A translator over any set of tables keyed like `source` (the React pages' here; the dashboard brings its own):
 * the locale's text, else the English one, with the overrides applied first.
 */
export function makeTranslator<K extends string>(
  source: Record<K, string>,
  tables: Partial<Record<SupportedLocale, Partial<Record<K, string>>>>,
  lang: string | undefined,
  overrides?: Record<string, string>,
): (key: K, vars?: MessageVars) => string {
  const locale = pickLocale([lang]);
  const table: Partial<Record<K, string>> = tables[locale] ?? {};
  const overridden = resolveOverrides(source, overrides);
  return (key, vars) => formatMessage(locale, overridden.get(key) ?? table[key] ?? source[key], vars);
}

/** Stack's translationOverrides, as a map from message key to replacement (see the top of this file). */
function resolveOverrides<K extends string>(
  source: Record<K, string>,
  overrides: Record<string, string> | undefined,
): Map<K, string> {
  const resolved = new Map<K, string>();
  for (const [original, replacement] of Object.entries(overrides ?? {})) {
    const keys = Object.hasOwn(source, original)
      ? [original as K]
      : (Object.keys(source) as K[]).filter((key) => source[key] === original);
    if (keys.length === 0) {
      throw new Error(
        `Invalid translation override: Original key ${JSON.stringify(original)} not found. Make sure you are passing the correct values into the translationOverrides property of the component.`,
      );
    }
    for (const key of keys) resolved.set(key, replacement);
  }
  return resolved;
}

/** The translate function of a locale (a BCP 47 tag; unsupported ones get English), without a provider. */
export function translator(lang: string, overrides?: Record<string, string>): Translate {
  return makeTranslator<MessageKey>(en, LOCALE_TABLES, lang, overrides);
}
