// The languages Gatehouse's pages, dashboard and built-in e-mails are written in, and the one rule that maps any
// BCP 47 tag (a `lang` prop, a browser's navigator.languages, a user's stored locale, a project's default) to one of
// them. Shared by the React pages and the server's e-mails, so both pick the same language for the same person.

/** The supported locales, as the tags the tables are named by. */
export const SUPPORTED_LOCALES = [
  "en",
  "de",
  "fr",
  "es",
  "pt-BR",
  "it",
  "ja",
  "ko",
  "zh-Hans",
  "zh-Hant",
  "nl",
  "pl",
  "ar",
] as const;

export type SupportedLocale = (typeof SUPPORTED_LOCALES)[number];

/** Written right to left: pages in these set dir="rtl". */
const RIGHT_TO_LEFT: ReadonlySet<string> = new Set(["ar"]);

/**
 * Where a user's chosen language is stored: this key of the user's `client_metadata` (Stack has no locale field).
 * The client may write it (account settings does, through the ordinary user update); the server reads it to send
 * e-mails in that language. Its value is a BCP 47 tag such as "de" or "zh-Hant".
 */
export const USER_LOCALE_METADATA_KEY = "locale";

// Chinese has two written forms; the region names which one its readers use when the tag has no script subtag.
const TRADITIONAL_CHINESE_REGIONS = new Set(["tw", "hk", "mo"]);

/**
 * The supported locale a tag asks for, or undefined when none fits. Case and `_` separators are forgiven. Chinese
 * goes by script (zh-Hans / zh-Hant), else by region (TW, HK, MO are Traditional; CN, SG or none Simplified);
 * any Portuguese is Brazilian Portuguese; the other languages go by their primary subtag ("de-CH" is "de").
 */
export function matchLocale(tag: string | null | undefined): SupportedLocale | undefined {
  if (typeof tag !== "string") return undefined;
  const [language = "", ...rest] = tag.trim().toLowerCase().split(/[-_]/);
  if (language === "zh") {
    if (rest.includes("hant")) return "zh-Hant";
    if (rest.includes("hans")) return "zh-Hans";
    return rest.some((part) => TRADITIONAL_CHINESE_REGIONS.has(part)) ? "zh-Hant" : "zh-Hans";
  }
  if (language === "pt") return "pt-BR";
  return SUPPORTED_LOCALES.find((locale) => locale === language);
}

/** The first of the tags, in order of preference, that a supported locale fits; English when none does. */
export function pickLocale(tags: Iterable<string | null | undefined>): SupportedLocale {
  for (const tag of tags) {
    const locale = matchLocale(tag);
    if (locale) return locale;
  }
  return "en";
}

export function isRightToLeft(locale: string): boolean {
  return RIGHT_TO_LEFT.has(matchLocale(locale) ?? locale);
}

/** The stored locale of a user's client_metadata, when it holds a string there. */
export function storedLocale(clientMetadata: unknown): string | undefined {
  if (typeof clientMetadata !== "object" || clientMetadata === null) return undefined;
  const value = (clientMetadata as Record<string, unknown>)[USER_LOCALE_METADATA_KEY];
  return typeof value === "string" ? value : undefined;
}
