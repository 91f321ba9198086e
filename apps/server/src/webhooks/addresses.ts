// Where webhooks may go (WIRE.md §4.16): loopback, private, link-local and other non-public addresses are refused
// unless the operator allows them, so a project's webhooks cannot reach the server's own network. Checked when an
// endpoint's URL is set and again before each request, since a name may resolve elsewhere later.
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

export const NOT_PUBLIC_MESSAGE = "Webhook URL must be a public address.";

const notPublic = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata services
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  notPublic.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 127], // unspecified and loopback
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
] as const) {
  notPublic.addSubnet(network, prefix, "ipv6");
}

/** Whether an IP address (v4, or v6 including IPv4-mapped) is a public one. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !notPublic.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** The URL's host as an address or a name: without IPv6 brackets or a trailing dot, lower-case. */
function hostOf(url: URL): string {
  return url.hostname
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "")
    .toLowerCase();
}

/**
 * Whether the URL's host is public: an address is checked as written; a name is resolved and every address it has
 * must be public. `localhost` names never are. A name that does not resolve passes (requests to it fail anyway).
 */
export async function isPublicUrl(url: string): Promise<boolean> {
  const host = hostOf(new URL(url));
  if (isIP(host)) return isPublicAddress(host);
  if (host === "localhost" || host.endsWith(".localhost")) return false;
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host, { all: true, verbatim: true });
  } catch {
    return true;
  }
  return addresses.every((a) => isPublicAddress(a.address));
}
