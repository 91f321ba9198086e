// Reading and writing cookie values the way Stack Auth's SDK (js-cookie) does, shared by the token stores and the
// OAuth verifier cookie: a `document.cookie` string or a `Cookie` header parsed into names and decoded values.

/** Parses a `document.cookie` or `Cookie` header; the first cookie of a name wins, values are percent-decoded. */
export function parseCookies(header: string): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (!cookies.has(name)) cookies.set(name, decodeCookieValue(value));
  }
  return cookies;
}

function decodeCookieValue(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Encodes like js-cookie (what Stack's SDK writes with), so both SDKs write the very same bytes. */
export function encodeCookieValue(value: string): string {
  return encodeURIComponent(value).replace(/%(2[346BF]|3[AC-F]|40|5[BDE]|60|7[BCD])/g, decodeURIComponent);
}
