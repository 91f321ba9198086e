// Firebase Auth's `firebase auth:export users.json --format=json`: `{"users": [...]}` with base64 scrypt hashes and
// salts, verified with the project's hash parameters (Console → Authentication → Users → Password hash parameters).
import { formatFirebaseScrypt } from "../crypto/firebase-scrypt.ts";
import { checked, parseJsonColumn, type SourceItem } from "./record.ts";
import { jsonArrayRows } from "./sources.ts";

export type FirebaseHashParameters = {
  signerKey: string;
  saltSeparator: string;
  rounds: number;
  memCost: number;
};

type FirebaseUser = {
  localId?: string;
  email?: string;
  emailVerified?: boolean;
  displayName?: string;
  photoUrl?: string;
  passwordHash?: string;
  salt?: string;
  customAttributes?: string;
  disabled?: boolean;
  providerUserInfo?: { providerId?: string; rawId?: string; email?: string }[];
};

export async function* readFirebase(
  path: string,
  parameters: FirebaseHashParameters | undefined,
): AsyncGenerator<SourceItem> {
  for await (const row of jsonArrayRows(path, "users")) {
    if ("fatal" in row) {
      yield row;
      continue;
    }
    const user = row.value as FirebaseUser;
    if (user.passwordHash && !parameters) {
      yield {
        line: row.line,
        skip: "password hash without the project's hash parameters (--hash-signer-key …)",
      };
      continue;
    }
    const passwordHash =
      user.passwordHash && parameters
        ? formatFirebaseScrypt({ ...parameters, salt: user.salt ?? "", passwordHash: user.passwordHash })
        : null;
    const social = (user.providerUserInfo ?? []).filter(
      (info) => info.providerId !== "password" && info.rawId,
    );
    yield checked(row.line, {
      id: user.localId,
      email: user.email?.toLowerCase() ?? null,
      email_verified: user.emailVerified ?? false,
      display_name: user.displayName ?? null,
      profile_image_url: user.photoUrl ?? null,
      password_hash: passwordHash,
      oauth_accounts: social.map((info) => ({
        provider: info.providerId as string,
        account_id: info.rawId as string,
        email: info.email ?? null,
      })),
      // Custom claims were visible to the user in the ID token: read-only client metadata keeps that.
      client_read_only_metadata: parseJsonColumn(user.customAttributes),
    });
  }
}
