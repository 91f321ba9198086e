// `gatehouse users list|create|get|delete` and `gatehouse keys create|list|revoke`, over the server's API.
import type { Command } from "commander";
import { allUsers } from "./api-client.ts";
import { print, table } from "./output.ts";
import { connect, type RemoteOptions, remoteOptions } from "./remote.ts";

type User = Record<string, unknown>;
const userRow = (user: User) => ({
  id: user.id,
  email: user.primary_email,
  verified: user.primary_email_verified,
  name: user.display_name,
  signed_up: user.signed_up_at_millis ? new Date(user.signed_up_at_millis as number).toISOString() : "",
});

export function registerUsers(program: Command): void {
  const users = program.command("users").description("list, create, show and delete users of a project");

  remoteOptions(users.command("list").description("list users (every page)"))
    .option("--query <text>", "filter by id, name or e-mail")
    .action(async (options: RemoteOptions & { query?: string }) => {
      const { api, output } = connect(options);
      const list: User[] = [];
      for await (const user of allUsers(
        api,
        options.query ? `query=${encodeURIComponent(options.query)}` : "",
      ))
        list.push(user);
      print(output, list, () => table(list.map(userRow), ["id", "email", "verified", "name", "signed_up"]));
    });

  remoteOptions(users.command("create").description("create a user"))
    .requiredOption("--email <email>", "primary e-mail")
    .option("--password <password>", "password (else the user signs in another way)")
    .option("--name <name>", "display name")
    .option("--verified", "mark the e-mail as verified", false)
    .action(
      async (
        options: RemoteOptions & { email: string; password?: string; name?: string; verified: boolean },
      ) => {
        const { api, output } = connect(options);
        const user = await api<User>("POST", "/users", {
          primary_email: options.email,
          primary_email_verified: options.verified,
          primary_email_auth_enabled: true,
          ...(options.password ? { password: options.password } : {}),
          ...(options.name ? { display_name: options.name } : {}),
        });
        print(output, user, () => `Created user ${user.id} (${user.primary_email})`);
      },
    );

  remoteOptions(users.command("get").description("show one user").argument("<user-id>")).action(
    async (id: string, options: RemoteOptions) => {
      const { api, output } = connect(options);
      const user = await api<User>("GET", `/users/${encodeURIComponent(id)}`);
      print(output, user, () => JSON.stringify(user, null, 2));
    },
  );

  remoteOptions(
    users.command("delete").description("delete a user and end their sessions").argument("<user-id>"),
  ).action(async (id: string, options: RemoteOptions) => {
    const { api, output } = connect(options);
    await api("DELETE", `/users/${encodeURIComponent(id)}`, {});
    print(output, { deleted: id }, () => `Deleted user ${id}`);
  });
}

type Key = Record<string, unknown>;
const keyRow = (key: Key) => ({
  id: key.id,
  description: key.description,
  expires: key.expires_at_millis ? new Date(key.expires_at_millis as number).toISOString() : "",
  revoked: key.manually_revoked_at_millis ? "yes" : "",
});

export function registerKeys(program: Command): void {
  const keys = program.command("keys").description("a project's API keys");

  remoteOptions(keys.command("list").description("list API keys")).action(async (options: RemoteOptions) => {
    const { api, output } = connect(options);
    const list = (await api<{ items: Key[] }>("GET", "/internal/api-keys")).items;
    print(output, list, () => table(list.map(keyRow), ["id", "description", "expires", "revoked"]));
  });

  remoteOptions(keys.command("create").description("create a key set; the keys are shown once"))
    .option("--description <text>", "what the keys are for", "created by gatehouse CLI")
    .option("--expires-in-days <days>", "lifetime in days", "365")
    .option("--no-client", "without a publishable client key")
    .option("--no-server", "without a secret server key")
    .option("--admin", "with a super secret admin key", false)
    .action(
      async (
        options: RemoteOptions & {
          description: string;
          expiresInDays: string;
          client: boolean;
          server: boolean;
          admin: boolean;
        },
      ) => {
        const { api, output } = connect(options);
        const key = await api<Key>("POST", "/internal/api-keys", {
          description: options.description,
          expires_at_millis: Date.now() + Number(options.expiresInDays) * 24 * 3600 * 1000,
          has_publishable_client_key: options.client,
          has_secret_server_key: options.server,
          has_super_secret_admin_key: options.admin,
        });
        print(output, key, () =>
          [
            `Created key set ${key.id}`,
            ...(["publishable_client_key", "secret_server_key", "super_secret_admin_key"] as const)
              .filter((name) => key[name])
              .map((name) => `  ${name}: ${key[name]}`),
          ].join("\n"),
        );
      },
    );

  remoteOptions(keys.command("revoke").description("revoke a key set").argument("<key-id>")).action(
    async (id: string, options: RemoteOptions) => {
      const { api, output } = connect(options);
      const key = await api<Key>("PATCH", `/internal/api-keys/${encodeURIComponent(id)}`, { revoked: true });
      print(output, key, () => `Revoked key set ${id}`);
    },
  );
}
