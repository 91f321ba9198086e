// The screens' texts are written one key a row with every locale side by side (one place to add or change a text);
// these turn the rows into the per-locale tables messages.ts hands the translator.
import { SUPPORTED_LOCALES, type SupportedLocale } from "@gatehouse/contract/locales";

/** A text in every supported locale, in SUPPORTED_LOCALES order (a short row is a type error and a failing test). */
export type Row = readonly [
  en: string,
  de: string,
  fr: string,
  es: string,
  ptBR: string,
  it: string,
  ja: string,
  ko: string,
  zhHans: string,
  zhHant: string,
  nl: string,
  pl: string,
  ar: string,
];

/** One locale's column of the rows; a missing cell leaves the key out, so messages.test.ts catches it. */
export function column<K extends string>(rows: Record<K, Row>, locale: SupportedLocale): Record<K, string> {
  const index = SUPPORTED_LOCALES.indexOf(locale);
  const table: Partial<Record<K, string>> = {};
  for (const key of Object.keys(rows) as K[]) {
    const text = rows[key][index];
    if (text !== undefined) table[key] = text;
  }
  return table as Record<K, string>;
}
