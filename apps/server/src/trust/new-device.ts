// New-device notice (issue 21): a sign-in from a browser, OS and IP network the user has not signed in from before
// e-mails them "New sign-in to <project>", through the e-mail outbox in the sign-in's own transaction. The e-mail is the
// `new_device_notice` template type: the project's edited one, else the default in the user's language.
import { isIPv4, isIPv6 } from "node:net";
import { storedLocale } from "@gatehouse/contract/locales";
import Bowser from "bowser";
import { eq, type SQL, sql } from "drizzle-orm";
import type { AuditScope } from "../audit/scope.ts";
import type { Clock } from "../clock.ts";
import { sha256Hex } from "../crypto/hash.ts";
import type { Db } from "../db/client.ts";
import { createEmailTemplatesRepo } from "../db/email-templates-repo.ts";
import { perDatabase } from "../db/prepared.ts";
import { knownDevices, projects } from "../db/schema.ts";
import type { Alongside } from "../db/sessions-repo.ts";
import type { KnownDevice, UserRecord } from "../db/users-repo.ts";
import type { EmailOutbox } from "../email/outbox.ts";
import { defaultEmailTemplates, type EmailTemplate, renderTemplate } from "../email/templates.ts";

export const NEW_DEVICE_TEMPLATE_TYPE = "new_device_notice";

/** The default notice in the recipient's language; `{{ name }}` placeholders are filled (and HTML-escaped) on render. */
export function newDeviceTemplate(lang?: string | null): EmailTemplate {
  return defaultEmailTemplates(lang).new_device_notice;
}

/**
 * The network a device is in: the IPv4 /24 or the IPv6 /64. A network rather than the address, so a home router's
 * new lease or a phone's rotating privacy address does not count as a new device.
 */
export function networkOf(ip: string | null): string {
  if (!ip) return "unknown";
  if (isIPv4(ip)) return `${ip.split(".").slice(0, 3).join(".")}.0/24`;
  if (!isIPv6(ip)) return "unknown";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  if (mapped) return networkOf(mapped);
  const [head = "", tail = ""] = ip.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = ip.includes("::") && tail ? tail.split(":") : [];
  const groups = ip.includes("::")
    ? [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}

/** Browser and OS families from the user agent (no versions: an update is not a new device). */
export function deviceOf(userAgent: string | null): { browser: string; os: string } {
  if (!userAgent) return { browser: "Unknown browser", os: "Unknown OS" };
  const parsed = Bowser.parse(userAgent);
  return {
    browser: parsed.browser.name || "Unknown browser",
    os: parsed.os.name || "Unknown OS",
  };
}

/** A first device's insert following `made`, with placeholders (see `firstDevice`). */
function firstDeviceAlongside(made: SQL): SQL {
  const value = (key: string) => sql.placeholder(`device_${key}`);
  return sql`, first_device as (
    insert into ${knownDevices} (user_id, device_hash, created_at)
    select ${value("user")}::uuid, ${value("hash")}, ${value("at")}::timestamptz from ${made}
    on conflict do nothing)`;
}

export function createNewDeviceNotice(deps: { outbox: EmailOutbox; scope: AuditScope; clock: Clock }) {
  const templates = createEmailTemplatesRepo();
  // Whether the user has any device yet, and this one among them: every password sign-in asks.
  const knownOf = perDatabase((tx) =>
    tx
      .select({
        any: sql<number>`1`,
        same: sql<boolean>`bool_or(${knownDevices.deviceHash} = ${sql.placeholder("deviceHash")})`,
      })
      .from(knownDevices)
      .where(eq(knownDevices.userId, sql.placeholder("userId")))
      .groupBy(knownDevices.userId)
      .prepare("known_device_of_user"),
  );
  /** The device of the request in scope, and its hash as known_devices stores it. */
  const currentDevice = () => {
    const { ip, userAgent } = deps.scope.current();
    const device = deviceOf(userAgent);
    return { ip, device, hash: sha256Hex(`${device.browser}\n${device.os}\n${networkOf(ip)}`) };
  };
  const knownOfUser = async (tx: Db, userId: string, deviceHash: string): Promise<KnownDevice> => {
    const [row] = await knownOf(tx).execute({ userId, deviceHash });
    return { any: row !== undefined, same: row?.same === true };
  };
  return {
    currentDeviceHash: () => currentDevice().hash,

    /**
     * A new user's first device, written by the statement that opens their first session (sessions-repo's
     * `insertUnlessBanned`), and only when it made the session: recorded, never announced (a first device is not
     * "new"). An upgraded anonymous user's device may be known already, which the insert skips.
     */
    firstDevice(user: UserRecord): Alongside {
      return {
        name: "device",
        build: firstDeviceAlongside,
        values: {
          device_user: user.id,
          device_hash: currentDevice().hash,
          device_at: deps.clock.now().toISOString(),
        },
      };
    },

    /**
     * Records the device of this sign-in for an existing user and, when it is new to them, queues the notice. A user
     * with no device yet (signed up before the notice existed) only records it: their first device is not "new".
     */
    async signedIn(tx: Db, user: UserRecord, signIn: { knownDevice?: KnownDevice }): Promise<void> {
      const { ip, device, hash: deviceHash } = currentDevice();
      // A password sign-in read the answer with its user (users-repo findForPasswordSignIn): one statement fewer.
      const known = signIn.knownDevice ?? (await knownOfUser(tx, user.id, deviceHash));
      if (known.same) return;
      const now = deps.clock.now();
      await tx
        .insert(knownDevices)
        .values({ userId: user.id, deviceHash, createdAt: now })
        .onConflictDoNothing();
      const to = user.primaryEmail?.value;
      if (!known.any || !to) return;
      const [project] = await tx
        .select({ displayName: projects.displayName, config: projects.config })
        .from(projects)
        .where(eq(projects.id, user.projectId));
      if (!project || project.config.new_device_notice_enabled === false) return;
      // An edited template is written in the project's own language; the default is in the user's stored language,
      // else the project's default, else English (as services/emails.ts picks).
      const edited = await templates.find(tx, user.projectId, NEW_DEVICE_TEMPLATE_TYPE);
      const rendered = renderTemplate(
        edited ?? newDeviceTemplate(storedLocale(user.clientMetadata) ?? project.config.default_language),
        {
          projectDisplayName: project.displayName,
          userDisplayName: user.displayName ?? "",
          time: now.toUTCString(),
          browser: device.browser,
          os: device.os,
          ip: ip ?? "unknown",
        },
      );
      await deps.outbox.enqueue(tx, {
        projectId: user.projectId,
        to,
        templateType: NEW_DEVICE_TEMPLATE_TYPE,
        ...rendered,
      });
    },
  };
}

export type NewDeviceNotice = ReturnType<typeof createNewDeviceNotice>;
