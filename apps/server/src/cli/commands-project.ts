// `gatehouse status`, `config export|apply`, `emails list` and `signing-keys rotate`, over the server's API.
// A configuration file holds the project's writable settings (WIRE §4.13), so applying it twice changes nothing.
import { readFileSync, writeFileSync } from "node:fs";
import type { Command } from "commander";
import YAML from "yaml";
import { CliError, EXIT, print } from "./output.ts";
import { connect, type RemoteOptions, remoteOptions } from "./remote.ts";

const READ_ONLY_CONFIG = new Set([
  "id",
  "legacy_global_jwt_signing",
  "allow_user_api_keys",
  "allow_team_api_keys",
  "enabled_oauth_providers",
  "user_default_permissions",
]);

type ProjectView = {
  id: string;
  display_name: string;
  description: string | null;
  is_production_mode: boolean;
  config: Record<string, unknown>;
  user_count?: number;
};
type ConfigFile = {
  display_name?: string;
  description?: string | null;
  is_production_mode?: boolean;
  config?: Record<string, unknown>;
};

/** The writable part of a project: what a file exports and applies. */
function toFile(project: ProjectView): ConfigFile {
  const config = Object.fromEntries(
    Object.entries(project.config)
      .filter(([key]) => !READ_ONLY_CONFIG.has(key))
      .map(([key, value]) =>
        // provider_config_id is read-only inside the provider list.
        key === "oauth_providers" && Array.isArray(value)
          ? [key, value.map(({ provider_config_id: _, ...provider }: Record<string, unknown>) => provider)]
          : [key, value],
      ),
  );
  return {
    display_name: project.display_name,
    description: project.description,
    is_production_mode: project.is_production_mode,
    config,
  };
}

/** Every leaf that differs, as `path: old -> new` (objects compared by key, arrays as a whole). */
export function diffConfig(current: unknown, wanted: unknown, path = ""): string[] {
  const isObject = (value: unknown): value is Record<string, unknown> =>
    !!value && typeof value === "object" && !Array.isArray(value);
  if (isObject(current) && isObject(wanted)) {
    return Object.keys(wanted).flatMap((key) =>
      diffConfig(current[key], wanted[key], path ? `${path}.${key}` : key),
    );
  }
  return JSON.stringify(current) === JSON.stringify(wanted)
    ? []
    : [`${path}: ${JSON.stringify(current)} -> ${JSON.stringify(wanted)}`];
}

export function registerProjectCommands(program: Command): void {
  remoteOptions(
    program
      .command("status")
      .description("server version, database and its migrations, this project's users, e-mail queue"),
  ).action(async (options: RemoteOptions) => {
    const { api, output } = connect(options);
    const base = (options.url ?? "http://localhost:8102").replace(/\/+$/, "");
    const health = await fetch(`${base}/health?db=1`).then(
      (res) => res.json() as Promise<{ status: string }>,
    );
    const project = await api<ProjectView>("GET", "/projects/current");
    const outbox = await api<{ items: { status?: string }[] }>("GET", "/internal/emails?limit=200");
    const queued = outbox.items.filter(
      (email) => email.status && !["sent", "delivered"].includes(email.status),
    ).length;
    const server = await api<{
      version: string;
      migrations: { applied: number; known: number; pending: string[] };
    }>("GET", "/internal/server-status");
    const status = {
      server: base,
      version: server.version,
      health: health.status,
      migrations_applied: server.migrations.applied,
      migrations_pending:
        server.migrations.pending.length === 0 ? "none" : server.migrations.pending.join(", "),
      project: project.id,
      display_name: project.display_name,
      users: project.user_count,
      emails_not_sent: queued,
    };
    print(output, status, () =>
      Object.entries(status)
        .map(([key, value]) => `${key.padEnd(16)}${value}`)
        .join("\n"),
    );
  });

  const config = program.command("config").description("a project's configuration as a file to keep in git");
  remoteOptions(
    config
      .command("export")
      .description("write the project's configuration (JSON, or YAML for .yaml/.yml)")
      .argument("[file]", "output file (default stdout)"),
  )
    .option("--format <format>", "json or yaml (default: from the file name, else json)")
    .action(async (file: string | undefined, options: RemoteOptions & { format?: string }) => {
      const { api } = connect(options);
      const data = toFile(await api<ProjectView>("GET", "/projects/current"));
      const yaml = options.format ? options.format === "yaml" : /\.ya?ml$/.test(file ?? "");
      const text = yaml ? YAML.stringify(data) : `${JSON.stringify(data, null, 2)}\n`;
      if (file) writeFileSync(file, text, { mode: 0o600 });
      else process.stdout.write(text);
    });

  remoteOptions(
    config
      .command("apply")
      .description("show the differences, then apply a configuration file")
      .argument("<file>"),
  )
    .option("--check", "only show the differences; exit 6 when there are any", false)
    .action(async (file: string, options: RemoteOptions & { check: boolean }) => {
      const { api, output } = connect(options);
      let wanted: ConfigFile;
      try {
        wanted = YAML.parse(readFileSync(file, "utf8")) as ConfigFile;
      } catch (error) {
        throw new CliError(`${file}: ${(error as Error).message}`, EXIT.badFile);
      }
      if (!wanted || typeof wanted !== "object")
        throw new CliError(`${file}: not a configuration object`, EXIT.badFile);
      const current = toFile(await api<ProjectView>("GET", "/projects/current"));
      const changes = diffConfig(current, wanted);
      if (changes.length > 0 && !options.check) await api("PATCH", "/projects/current", wanted);
      print(output, { changes, applied: changes.length > 0 && !options.check }, () =>
        changes.length === 0
          ? "No changes."
          : [
              ...changes.map((change) => `~ ${change}`),
              options.check ? "(not applied: --check)" : `Applied ${changes.length} change(s).`,
            ].join("\n"),
      );
      if (options.check && changes.length > 0) process.exitCode = EXIT.differs;
    });

  const emails = program.command("emails").description("the project's e-mail outbox (the development inbox)");
  remoteOptions(emails.command("list").description("newest e-mails first, with the links in them"))
    .option("--to <address>", "only e-mails to this address")
    .option("--limit <n>", "how many", "20")
    .action(async (options: RemoteOptions & { to?: string; limit: string }) => {
      const { api, output } = connect(options);
      const query = new URLSearchParams({ limit: options.limit, ...(options.to ? { to: options.to } : {}) });
      const list = (
        await api<{
          items: { id: string; to: string; subject: string; text: string | null; html: string | null }[];
        }>("GET", `/internal/emails?${query}`)
      ).items;
      const links = (email: { text: string | null; html: string | null }) => [
        ...new Set((email.text ?? email.html ?? "").match(/https?:\/\/[^\s"'<>)]+/g) ?? []),
      ];
      print(
        output,
        list.map((email) => ({ ...email, links: links(email) })),
        () =>
          list.length === 0
            ? "(no e-mails)"
            : list
                .map((email) =>
                  [
                    `To: ${email.to}`,
                    `Subject: ${email.subject}`,
                    ...links(email).map((link) => `  ${link}`),
                  ].join("\n"),
                )
                .join("\n\n"),
      );
    });

  const signingKeys = program.command("signing-keys").description("the project's token signing keys");
  const showKeys = (output: { json: boolean }, items: SigningKeyLine[]) =>
    print(output, items, () =>
      items
        .map(
          (key) =>
            `${key.kid}  ${key.audience.padEnd(10)} ${key.state.padEnd(8)} signs from ${new Date(key.signs_from_millis).toISOString()}`,
        )
        .join("\n"),
    );
  remoteOptions(
    signingKeys
      .command("list")
      .description("the published keys: pending (not signing yet), current, previous (still verifying)"),
  ).action(async (options: RemoteOptions) => {
    const { api, output } = connect(options);
    showKeys(output, (await api<{ items: SigningKeyLine[] }>("GET", "/internal/signing-keys")).items);
  });
  remoteOptions(
    signingKeys
      .command("rotate")
      .description(
        "publish a new key per audience (it signs after the one-hour JWKS cache time); keys superseded for longer than an access-token lifetime are retired",
      ),
  ).action(async (options: RemoteOptions) => {
    const { api, output } = connect(options);
    showKeys(output, (await api<{ items: SigningKeyLine[] }>("POST", "/internal/signing-keys/rotate")).items);
  });
}

type SigningKeyLine = {
  kid: string;
  audience: string;
  state: string;
  created_at_millis: number;
  signs_from_millis: number;
};
