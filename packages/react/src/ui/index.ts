// `@gatehouse/react/ui`: the bricks the handler pages are made of, for Gatehouse's own apps (the dashboard) to
// look and behave the same: the scoped root, fields, buttons with progress, alerts, the in-place confirm step, error
// boundaries, useAction, and tracked reads.

/** The translator errorMessage words its sentences with, for callers that word errors outside useAction. */
/** The pages' language for Gatehouse's own apps: the dashboard translates its texts with the same rules. */
export { makeTranslator, useDirection, useLocale, useTranslation } from "../i18n.ts";
export { type Tracked, track } from "../store.ts";
export { ConfirmButton, type ConfirmButtonProps } from "./confirm-button.tsx";
export { ErrorBoundary, type ErrorBoundaryProps } from "./error-boundary.tsx";
export {
  Alert,
  Avatar,
  Button,
  Divider,
  Field,
  FieldNotes,
  Link,
  LinkButton,
  Muted,
  PageCard,
  Root,
  Section,
  Spinner,
} from "./primitives.tsx";
export { type ErrorTexts, errorMessage, type OtherText, useAction } from "./use-action.ts";
