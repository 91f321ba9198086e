// The dashboard's texts: every locale has every key of English and no other, with English's variables.
import { SUPPORTED_LOCALES } from "@gatehouse/contract/locales";
import { describe, expect, it } from "vitest";
import { messageVariables } from "../../../packages/react/src/format.ts";
import { DASHBOARD_TABLES, en } from "./messages.ts";

describe("dashboard locale tables", () => {
  it.each(SUPPORTED_LOCALES.filter((locale) => locale !== "en"))(
    "%s is complete and keeps the variables",
    (locale) => {
      const table: Record<string, string> = DASHBOARD_TABLES[locale as keyof typeof DASHBOARD_TABLES];
      expect(Object.keys(table).sort()).toEqual(Object.keys(en).sort());
      for (const [key, text] of Object.entries(en)) {
        expect(messageVariables(table[key] ?? ""), key).toEqual(messageVariables(text));
      }
    },
  );
});
