// Trusted URLs (WIRE.md §7): exact origin match against the project's domains, or localhost when allowed. No
// wildcards and no prefix matches, so a callback can never send a code to someone else's site.
import { KnownErrors, type ProjectConfig } from "@gatehouse/contract";

const LOCALHOST_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export function isLocalhost(hostname: string): boolean {
  return LOCALHOST_HOSTS.has(hostname) || hostname.endsWith(".localhost");
}

export function isTrustedUrl(config: ProjectConfig, raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  // User info in a URL is a classic way to disguise the real host in front of a reader.
  if (url.username || url.password) return false;
  if (config.allow_localhost && isLocalhost(url.hostname)) return true;
  return config.domains.some((d) => {
    try {
      return new URL(d.domain).origin === url.origin;
    } catch {
      return false;
    }
  });
}

export function assertTrustedUrl(config: ProjectConfig, raw: string | undefined): void {
  if (raw !== undefined && !isTrustedUrl(config, raw)) throw KnownErrors.REDIRECT_URL_NOT_WHITELISTED();
}
