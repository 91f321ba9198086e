// Better Auth: its `user` table, with the `account` table (`--accounts`) for passwords and OAuth links. Its
// password is `<salt hex>:<key hex>`, scrypt N=16384, r=16, p=1, 64 bytes, with the hex text itself as the salt, so
// it becomes a standard scrypt PHC string. (Better Auth NFKC-normalises passwords first; for ASCII that changes
// nothing, other passwords verify when typed in the same normal form.)
import { checked, type SourceItem } from "./record.ts";
import { groupRows, tableRows } from "./sources.ts";

/** `salt:key` (hex) → `$scrypt$ln=14,r=16,p=1$…$…`, or undefined when it is not Better Auth's format. */
export function betterAuthHash(stored: string): string | undefined {
  const match = /^([0-9a-f]{16,}):([0-9a-f]{128})$/i.exec(stored);
  if (!match) return;
  const b64 = (bytes: Buffer) => bytes.toString("base64").replace(/=+$/, "");
  return `$scrypt$ln=14,r=16,p=1$${b64(Buffer.from(match[1] as string, "utf8"))}$${b64(Buffer.from(match[2] as string, "hex"))}`;
}

export async function* readBetterAuth(path: string, accountsPath?: string): AsyncGenerator<SourceItem> {
  const accounts = accountsPath ? await groupRows(accountsPath, "userId") : new Map();
  for await (const row of tableRows(path)) {
    if ("fatal" in row) {
      yield row;
      continue;
    }
    const user = row.value as Record<string, unknown>;
    const own: Record<string, unknown>[] = accounts.get(String(user.id)) ?? [];
    const credential = own.find((account) => account.providerId === "credential" && account.password);
    const passwordHash = credential ? betterAuthHash(String(credential.password)) : undefined;
    if (credential && !passwordHash) {
      yield { line: row.line, skip: "password is not Better Auth's scrypt format (salt:key)" };
      continue;
    }
    yield checked(row.line, {
      id: user.id,
      email: typeof user.email === "string" ? user.email.toLowerCase() : null,
      email_verified:
        user.emailVerified === true || user.emailVerified === "true" || user.emailVerified === "1",
      display_name: (user.name || null) as string | null,
      profile_image_url: (user.image || null) as string | null,
      password_hash: passwordHash ?? null,
      oauth_accounts: own
        .filter((account) => account.providerId !== "credential")
        .map((account) => ({ provider: String(account.providerId), account_id: String(account.accountId) })),
    });
  }
}
