// `gatehouse export`: a project's users in the generic import format, password hashes included, so leaving Gatehouse
// is as easy as arriving. Read from the database in pages of 1,000 users and written as NDJSON while it reads.
import type { Writable } from "node:stream";
import { and, asc, eq, gt, inArray } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import {
  contactChannels,
  oauthAccounts,
  teamMembers,
  teamPermissionGrants,
  teams,
  users,
} from "../db/schema.ts";
import type { ImportUser } from "./record.ts";

const PAGE = 1000;

async function write(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await new Promise((resolve) => out.once("drain", resolve));
}

/** Writes every non-anonymous user of the project; returns how many. */
export async function exportUsers(db: Db, projectId: string, out: Writable): Promise<number> {
  let after: string | undefined;
  let count = 0;
  for (;;) {
    const page = await db
      .select()
      .from(users)
      .where(
        and(
          eq(users.projectId, projectId),
          eq(users.isAnonymous, false),
          after ? gt(users.id, after) : undefined,
        ),
      )
      .orderBy(asc(users.id))
      .limit(PAGE);
    if (page.length === 0) return count;
    const ids = page.map((user) => user.id);
    const [channels, accounts, memberships, admins] = await Promise.all([
      db
        .select()
        .from(contactChannels)
        .where(and(inArray(contactChannels.userId, ids), eq(contactChannels.isPrimary, true))),
      db.select().from(oauthAccounts).where(inArray(oauthAccounts.userId, ids)),
      db
        .select({ userId: teamMembers.userId, teamId: teams.id, displayName: teams.displayName })
        .from(teamMembers)
        .innerJoin(teams, eq(teams.id, teamMembers.teamId))
        .where(inArray(teamMembers.userId, ids)),
      db
        .select({ userId: teamPermissionGrants.userId, teamId: teamPermissionGrants.teamId })
        .from(teamPermissionGrants)
        .where(
          and(inArray(teamPermissionGrants.userId, ids), eq(teamPermissionGrants.permissionId, "team_admin")),
        ),
    ]);
    const adminOf = new Set(admins.map((grant) => `${grant.userId}/${grant.teamId}`));
    for (const user of page) {
      const email = channels.find((channel) => channel.userId === user.id);
      const record: ImportUser = {
        id: user.id,
        email: email?.value ?? null,
        email_verified: email?.isVerified ?? false,
        display_name: user.displayName,
        profile_image_url: user.profileImageUrl,
        password_hash: user.passwordHash,
        oauth_accounts: accounts
          .filter((account) => account.userId === user.id)
          .map((account) => ({
            provider: account.providerId,
            account_id: account.accountId,
            email: account.email,
          })),
        client_metadata: user.clientMetadata ?? undefined,
        client_read_only_metadata: user.clientReadOnlyMetadata ?? undefined,
        server_metadata: user.serverMetadata ?? undefined,
        teams: memberships
          .filter((membership) => membership.userId === user.id)
          .map((membership) => ({
            id: membership.teamId,
            display_name: membership.displayName,
            ...(adminOf.has(`${user.id}/${membership.teamId}`) ? { role: "admin" } : {}),
          })),
      };
      await write(out, `${JSON.stringify(record)}\n`);
      count++;
    }
    after = page.at(-1)?.id ?? after;
  }
}
