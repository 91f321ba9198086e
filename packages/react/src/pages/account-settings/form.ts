// Form helpers of the account settings: check an e-mail.
/** A plausible e-mail address (the server has the final word). */
export const isEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
