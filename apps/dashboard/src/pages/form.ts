// What the dashboard's forms share: useAction with the dashboard's wording of the server's plain-text refusals
// (a 400 whose body is a sentence, such as a production-mode problem), shown in place like any known error, and
// optionally completed by the form (`explain`) with what the operator can do about one.
import { StatusError } from "@gatehouse/react";
import { type ErrorTexts, useAction } from "@gatehouse/react/ui";

/** The server's own sentence for a refusal that is not a catalogue error. */
export const plainRefusal = (error: unknown) =>
  error instanceof StatusError && error.status < 500 && error.body ? error.body : null;

export function useFormAction<Args extends unknown[]>(
  action: (...args: Args) => Promise<void>,
  texts: ErrorTexts = {},
  explain?: (refusal: string) => string,
) {
  return useAction(action, texts, (error) => {
    const refusal = plainRefusal(error);
    return refusal && explain ? explain(refusal) : refusal;
  });
}
