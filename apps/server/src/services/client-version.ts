// POST /check-version: whether a Stack SDK version suits this server, by Stack's rules, with the newest SDK version
// Gatehouse is tested against standing in for Stack's own server version.

/** The newest Stack SDK release the interop suite runs (e2e/interop). */
export const NEWEST_TESTED_SDK_VERSION = "2.8.108";
/** Older SDKs may run a React with the RSC vulnerability (CVE-2025-55182); Stack warns severely below it. */
const MINIMUM_SAFE_VERSION = "2.8.57";

type Version = [number, number, number, string];

/** `major.minor.patch[-pre][+build]`, or undefined for anything else. */
function parse(text: string): Version | undefined {
  const m = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(
    text,
  );
  if (!m) return undefined;
  return [Number(m[1]), Number(m[2]), Number(m[3]), m[4] ?? ""];
}

/** Orders versions; a pre-release comes before its release (pre-release tags compare as text, enough here). */
function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  if (a[3] === b[3]) return 0;
  if (a[3] === "") return 1;
  if (b[3] === "") return -1;
  return a[3] < b[3] ? -1 : 1;
}

export type VersionCheck = { upToDate: true } | { upToDate: false; error: string; severe: boolean };

export function checkClientVersion(clientVersion: string): VersionCheck {
  const outdated = (severe: boolean, error: string): VersionCheck => ({ upToDate: false, error, severe });
  const client = parse(clientVersion);
  const server = parse(NEWEST_TESTED_SDK_VERSION) as Version;
  if (!client)
    return outdated(
      true,
      `The client version you specified (v${clientVersion}) is not a valid semver version. Please update to the latest version as soon as possible to ensure that you get the latest feature and security updates.`,
    );
  if (compare(client, parse(MINIMUM_SAFE_VERSION) as Version) < 0)
    return outdated(
      true,
      "It seems that you may be running on an old version of Next.js/React. Please update to the newest version immediately to apply the latest security updates including one urgent vulnerability in React Server Components. See: https://vercel.com/changelog/cve-2025-55182",
    );
  if (client[0] !== server[0] || client[1] !== server[1])
    return outdated(
      true,
      `YOUR VERSION OF STACK AUTH IS SEVERELY OUTDATED. YOU SHOULD UPDATE IT AS SOON AS POSSIBLE. WE CAN'T APPLY SECURITY UPDATES IF YOU DON'T UPDATE STACK AUTH REGULARLY. (your version is v${clientVersion}; the current version is v${NEWEST_TESTED_SDK_VERSION}).`,
    );
  const order = compare(client, server);
  if (order < 0)
    return outdated(
      false,
      `You are running an outdated version of Stack Auth (v${clientVersion}; the current version is v${NEWEST_TESTED_SDK_VERSION}). Please update to the latest version as soon as possible to ensure that you get the latest feature and security updates.`,
    );
  return { upToDate: true };
}
