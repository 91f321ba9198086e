// Form helpers of the account settings: read a submitted field, focus the first invalid one, check an e-mail.
export function fieldValue(form: HTMLFormElement, name: string): string {
  const element = form.elements.namedItem(name);
  return element instanceof HTMLInputElement ? element.value : "";
}

/** Focuses the first field named in `errors` (in form order) that has an error; true when there was one. */
export function focusFirstInvalid(form: HTMLFormElement, errors: Record<string, string | null>): boolean {
  for (const element of Array.from(form.elements)) {
    if (element instanceof HTMLInputElement && errors[element.name]) {
      element.focus();
      return true;
    }
  }
  return false;
}

/** A plausible e-mail address (the server has the final word). */
export const isEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
