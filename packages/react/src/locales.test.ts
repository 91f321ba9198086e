// Every locale is complete and faithful to English: no key missing, none English lacks, the same `{variables}`; and
// the language rules a page depends on (which tag picks which table, plurals and overrides).
import { matchLocale, pickLocale, SUPPORTED_LOCALES } from "@gatehouse/contract/locales";
import { beforeAll, describe, expect, it } from "vitest";
import { messageVariables } from "./format.ts";
import { en } from "./messages/en.ts";
import { loadedTable, loadLocale, translator } from "./translations.ts";

// Every table loaded up front (the pages load them on demand); loading twice gives the same table.
beforeAll(async () => {
  await Promise.all(SUPPORTED_LOCALES.map(loadLocale));
  expect(await loadLocale("de")).toBe(loadedTable("de"));
});

describe("locale tables", () => {
  const englishKeys = Object.keys(en).sort();
  it.each(SUPPORTED_LOCALES.filter((locale) => locale !== "en"))(
    "%s has every key of English and no other",
    (locale) => {
      const table = loadedTable(locale) ?? {};
      const keys = Object.keys(table).sort();
      expect(
        englishKeys.filter((key) => !keys.includes(key)),
        "missing keys",
      ).toEqual([]);
      expect(
        keys.filter((key) => !englishKeys.includes(key)),
        "keys English lacks",
      ).toEqual([]);
    },
  );

  it.each(SUPPORTED_LOCALES.filter((locale) => locale !== "en"))("%s keeps English's variables", (locale) => {
    const table: Record<string, string | undefined> = loadedTable(locale) ?? {};
    const differing = Object.entries(en)
      .filter(([key]) => table[key] !== undefined)
      .filter(([key, text]) => messageVariables(table[key] ?? "").join() !== messageVariables(text).join())
      .map(([key]) => key);
    expect(differing).toEqual([]);
  });
});

describe("choosing a locale", () => {
  it("maps Chinese by script, then region", () => {
    expect(matchLocale("zh-CN")).toBe("zh-Hans");
    expect(matchLocale("zh")).toBe("zh-Hans");
    expect(matchLocale("zh-Hans-HK")).toBe("zh-Hans");
    expect(matchLocale("zh-TW")).toBe("zh-Hant");
    expect(matchLocale("zh_HK")).toBe("zh-Hant");
    expect(matchLocale("zh-Hant")).toBe("zh-Hant");
    expect(matchLocale("zh-MO")).toBe("zh-Hant");
  });

  it("maps Portuguese to Brazilian Portuguese and others by primary subtag", () => {
    expect(matchLocale("pt")).toBe("pt-BR");
    expect(matchLocale("pt-PT")).toBe("pt-BR");
    expect(matchLocale("de-CH")).toBe("de");
    expect(matchLocale("AR-eg")).toBe("ar");
    expect(matchLocale("sv-SE")).toBeUndefined();
  });

  it("takes the first supported tag in order, else English", () => {
    expect(pickLocale([undefined, "sv", "fr-CA", "de"])).toBe("fr");
    expect(pickLocale(["sv", null])).toBe("en");
  });
});

describe("translator", () => {
  it("pluralizes with Intl.PluralRules and formats numbers in the locale", () => {
    expect(translator("en")("account.nameTooLong", { max: 1 })).toBe("Names can have at most 1 character.");
    expect(translator("en")("account.nameTooLong", { max: 1000 })).toBe(
      "Names can have at most 1,000 characters.",
    );
    expect(translator("de")("account.nameTooLong", { max: 1000 })).toBe(
      "Namen dürfen höchstens 1.000 Zeichen lang sein.",
    );
  });

  it("falls back to English for a key a locale lacks", () => {
    expect(translator("sv")("auth.signIn.title")).toBe("Sign in");
  });

  it("applies translationOverrides by English text (every key with it) or by key, in any language", () => {
    const t = translator("de", { "Sign in": "Log in", "auth.signUp.title": "Join us, {x}" });
    expect(t("auth.signIn.title")).toBe("Log in");
    expect(t("userButton.signIn")).toBe("Log in");
    expect(t("auth.signUp.title", { x: "Ann" })).toBe("Join us, Ann");
    expect(t("auth.signUp.submit")).toBe("Registrieren");
  });

  it("throws on an override that matches no English text, case-sensitively as Stack does", () => {
    expect(() => translator("en", { "sign in": "Log in" })).toThrow(/Invalid translation override/);
  });
});
