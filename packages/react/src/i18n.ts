// The pages' language: which locale a person sees, and the translate function of that locale.
//
// Chosen in this order (the first that names a supported locale wins, see matchLocale in @gatehouse/contract):
//   1. the provider's `lang` prop;
//   2. the signed-in user's stored locale (`client_metadata.locale`, set by account settings' language picker);
//   3. the browser's languages (navigator.languages, in the person's order of preference);
//   4. English.
//
// `translationOverrides` (the provider's prop, named and behaving as Stack's StackProvider's) replaces texts in
// every language: each entry maps an English source text (case-sensitive, exactly as the English table has it) or a
// message key ("auth.signIn.title") to the text to show instead. An English text used by several keys replaces all
// of them. An entry that names neither throws, as Stack's does, so a typo does not go unnoticed. Overrides may use
// the same `{variables}` as the text they replace.
import { isRightToLeft, pickLocale, type SupportedLocale, storedLocale } from "@gatehouse/contract/locales";
import { use, useMemo, useSyncExternalStore } from "react";
import { useStackContext } from "./provider.tsx";
import { loadedTable, loadLocale, type Translate, translator } from "./translations.ts";

export {
  loadLocale,
  type MessageKey,
  type Messages,
  makeTranslator,
  type Translate,
  translator,
} from "./translations.ts";

const noSubscription = () => () => {};
// A string, so the snapshot compares equal between renders (some browsers hand out a new array each time).
const browserLanguages = (): string =>
  typeof navigator === "undefined" ? "" : (navigator.languages ?? [navigator.language]).join(",");

/** The locale the pages are in (order at the top of this file). Does not wait for the user: it reads what is known. */
export function useLocale(): SupportedLocale {
  const { lang, store } = useStackContext();
  const source = store.userSource(undefined);
  const user = useSyncExternalStore(source.subscribe, source.getSnapshot, source.getSnapshot);
  const languages = useSyncExternalStore(noSubscription, browserLanguages, () => "");
  return pickLocale([lang, storedLocale(user?.clientMetadata), ...languages.split(",")]);
}

/** The locale's writing direction, for the pages' root element. */
export function useDirection(): "ltr" | "rtl" {
  return isRightToLeft(useLocale()) ? "rtl" : "ltr";
}

/**
 * The translate function of the pages' locale, with the provider's translationOverrides. Suspends the first time a
 * language other than English is shown, while its table loads.
 */
export function useTranslation(): Translate {
  const locale = useLocale();
  if (!loadedTable(locale)) use(loadLocale(locale));
  const { translationOverrides } = useStackContext();
  return useMemo(() => translator(locale, translationOverrides), [locale, translationOverrides]);
}
