// The locale tables (loaded on demand) and translators, without React: shared by the pages' hooks (i18n.ts), the dashboard, and tests
// that run outside a browser (the e2e suites' expected texts). The rules for overrides are at the top of i18n.ts.
import { pickLocale, type SupportedLocale } from "@gatehouse/contract/locales";
import { formatMessage, type MessageVars } from "./format.ts";
import { en, type LocaleTable, type MessageKey, type Messages } from "./messages/en.ts";

export type { MessageKey, Messages };

// Each language but English is a chunk of its own, fetched when a page first shows it: a visitor downloads English
// (the fallback) and their own language, not all thirteen.
const LOADERS: Record<Exclude<SupportedLocale, "en">, () => Promise<LocaleTable>> = {
  de: () => import("./locales/de.ts").then((m) => m.de),
  fr: () => import("./locales/fr.ts").then((m) => m.fr),
  es: () => import("./locales/es.ts").then((m) => m.es),
  "pt-BR": () => import("./locales/pt-BR.ts").then((m) => m.ptBR),
  it: () => import("./locales/it.ts").then((m) => m.it),
  ja: () => import("./locales/ja.ts").then((m) => m.ja),
  ko: () => import("./locales/ko.ts").then((m) => m.ko),
  "zh-Hans": () => import("./locales/zh-Hans.ts").then((m) => m.zhHans),
  "zh-Hant": () => import("./locales/zh-Hant.ts").then((m) => m.zhHant),
  nl: () => import("./locales/nl.ts").then((m) => m.nl),
  pl: () => import("./locales/pl.ts").then((m) => m.pl),
  ar: () => import("./locales/ar.ts").then((m) => m.ar),
};

const loaded = new Map<SupportedLocale, LocaleTable>([["en", en]]);
const loading = new Map<SupportedLocale, Promise<LocaleTable>>();

/** A locale's table once loaded (English always is), else undefined. */
export function loadedTable(locale: SupportedLocale): LocaleTable | undefined {
  return loaded.get(locale);
}

/** Loads a locale's table; every caller while it loads gets the same promise (React's `use` needs that). */
export function loadLocale(locale: SupportedLocale): Promise<LocaleTable> {
  const table = loaded.get(locale);
  if (table) return Promise.resolve(table);
  let pending = loading.get(locale);
  if (!pending) {
    pending = LOADERS[locale as Exclude<SupportedLocale, "en">]().then((fetched) => {
      loaded.set(locale, fetched);
      return fetched;
    });
    loading.set(locale, pending);
  }
  return pending;
}

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

/**
 * The translate function of a locale (a BCP 47 tag; unsupported ones get English), without a provider. The locale's
 * table must be loaded (loadLocale); until it is, the texts are English.
 */
export function translator(lang: string, overrides?: Record<string, string>): Translate {
  const locale = pickLocale([lang]);
  return makeTranslator<MessageKey>(en, { [locale]: loaded.get(locale) }, locale, overrides);
}
