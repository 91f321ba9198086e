// Options shared by every command that talks to a running server, read from flags or the environment.
import type { Command } from "commander";
import { type ApiClient, apiClient } from "./api-client.ts";
import { CliError, EXIT, type Output } from "./output.ts";

export type RemoteOptions = { url?: string; project?: string; adminKey?: string; json?: boolean };

export function remoteOptions(command: Command): Command {
  return command
    .option(
      "--url <url>",
      "server URL (env GATEHOUSE_URL)",
      process.env.GATEHOUSE_URL ?? "http://localhost:8102",
    )
    .option(
      "--project <id>",
      "project id (env GATEHOUSE_PROJECT_ID)",
      process.env.GATEHOUSE_PROJECT_ID ?? "internal",
    )
    .option("--admin-key <key>", "the project's super secret admin key (env GATEHOUSE_ADMIN_KEY)")
    .option("--json", "print JSON for scripts", false);
}

export function connect(options: RemoteOptions): { api: ApiClient; output: Output } {
  const adminKey = options.adminKey ?? process.env.GATEHOUSE_ADMIN_KEY;
  if (!adminKey) throw new CliError("an admin key is needed: --admin-key or GATEHOUSE_ADMIN_KEY", EXIT.usage);
  return {
    api: apiClient({
      url: options.url ?? "http://localhost:8102",
      projectId: options.project ?? "internal",
      adminKey,
    }),
    output: { json: options.json ?? false },
  };
}
