// Auth0's user export (the "User Import / Export" extension or the export job: NDJSON of user profiles) together with
// the password-hash export Auth0 support hands out on request (NDJSON of `{_id: {$oid}, email, passwordHash}`). The
// hashes are read into a map first: that file holds only ids and hashes.
import { checked, type SourceItem } from "./record.ts";
import { ndjsonRows } from "./sources.ts";

type Auth0Identity = {
  provider?: string;
  user_id?: string | number;
  connection?: string;
  isSocial?: boolean;
};
type Auth0User = {
  user_id?: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  nickname?: string;
  picture?: string;
  identities?: Auth0Identity[];
  user_metadata?: unknown;
  app_metadata?: unknown;
  created_at?: string;
};

/** The hash export's ids (`_id.$oid`, the part after `auth0|`) and e-mails, each to its bcrypt hash. */
export async function readAuth0Hashes(path: string): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  for await (const row of ndjsonRows(path)) {
    if ("fatal" in row) throw new Error(`${path}:${row.line}: ${row.fatal}`);
    const value = row.value as { _id?: { $oid?: string } | string; email?: string; passwordHash?: string };
    if (!value.passwordHash) continue;
    const id = typeof value._id === "string" ? value._id : value._id?.$oid;
    if (id) hashes.set(id, value.passwordHash);
    if (value.email) hashes.set(`email:${value.email.toLowerCase()}`, value.passwordHash);
  }
  return hashes;
}

export async function* readAuth0(
  path: string,
  hashes = new Map<string, string>(),
): AsyncGenerator<SourceItem> {
  for await (const row of ndjsonRows(path)) {
    if ("fatal" in row) {
      yield row;
      continue;
    }
    const user = row.value as Auth0User;
    if (!user.user_id) {
      yield { line: row.line, skip: "no user_id" };
      continue;
    }
    const email = user.email?.toLowerCase() ?? null;
    const localId = user.user_id.startsWith("auth0|") ? user.user_id.slice("auth0|".length) : undefined;
    const passwordHash =
      (localId && hashes.get(localId)) || (email && localId ? hashes.get(`email:${email}`) : undefined);
    const social = (user.identities ?? []).filter((identity) => identity.isSocial && identity.provider);
    yield checked(row.line, {
      id: user.user_id,
      email,
      email_verified: user.email_verified ?? false,
      display_name: user.name ?? user.nickname ?? null,
      profile_image_url: user.picture ?? null,
      password_hash: passwordHash ?? null,
      oauth_accounts: social.map((identity) => ({
        provider: identity.provider as string,
        account_id: String(identity.user_id),
        email,
      })),
      client_metadata: user.user_metadata,
      server_metadata: user.app_metadata,
    });
  }
}
