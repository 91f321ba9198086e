// `gatehouse import <provider> <file>`: another system's export into a project of a running server, with progress on
// stderr and a report of every skipped record on stdout.
import { writeFileSync } from "node:fs";
import { MAX_IMPORT_BATCH } from "@gatehouse/contract";
import type { Command } from "commander";
import { httpSink } from "../importers/http-sink.ts";
import { importReader, PROVIDERS, type Provider } from "../importers/index.ts";
import { formatProgress, ImportFileError, runImport } from "../importers/run.ts";
import { CliError, EXIT, print } from "./output.ts";
import { connect, type RemoteOptions, remoteOptions } from "./remote.ts";

type ImportFlags = RemoteOptions & {
  dryRun: boolean;
  passwords?: string;
  identities?: string;
  accounts?: string;
  hashSignerKey?: string;
  hashSaltSeparator?: string;
  hashRounds?: string;
  hashMemCost?: string;
  batchSize: string;
  checkpoint?: string;
  report?: string;
};

export function registerImport(program: Command): void {
  remoteOptions(
    program
      .command("import")
      .description(`import users from another provider's export (${PROVIDERS.join(", ")}); see docs/cli.md`)
      .argument("<provider>", PROVIDERS.join(" | "))
      .argument("<file>", "the export file"),
  )
    .option("--dry-run", "read and check the whole file, write nothing", false)
    .option("--passwords <file>", "auth0: the password-hash export (NDJSON)")
    .option("--hash-signer-key <base64>", "firebase: base64_signer_key")
    .option("--hash-salt-separator <base64>", "firebase: base64_salt_separator")
    .option("--hash-rounds <n>", "firebase: rounds", "8")
    .option("--hash-mem-cost <n>", "firebase: mem_cost", "14")
    .option("--identities <file>", "supabase: the auth.identities table (CSV or JSON)")
    .option("--accounts <file>", "better-auth: the account table (CSV or JSON)")
    .option("--batch-size <n>", "users per request (one transaction each, at most 1000)", "500")
    .option(
      "--checkpoint <file>",
      "where progress is kept for resuming (default <file>.gatehouse-import.json)",
    )
    .option("--report <file>", "also write the report (JSON) to this file")
    .action(async (provider: string, file: string, options: ImportFlags) => {
      if (!(PROVIDERS as readonly string[]).includes(provider))
        throw new CliError(`unknown provider ${provider}; one of ${PROVIDERS.join(", ")}`, EXIT.usage);
      const { api, output } = connect(options);
      const firebase =
        options.hashSignerKey && options.hashSaltSeparator
          ? {
              signerKey: options.hashSignerKey,
              saltSeparator: options.hashSaltSeparator,
              rounds: Number(options.hashRounds),
              memCost: Number(options.hashMemCost),
            }
          : undefined;
      const read = await importReader(provider as Provider, file, {
        passwords: options.passwords,
        identities: options.identities,
        accounts: options.accounts,
        firebase,
      });
      const tty = process.stderr.isTTY;
      let report: Awaited<ReturnType<typeof runImport>>;
      try {
        report = await runImport({
          provider,
          file,
          read,
          sink: httpSink(api, provider),
          dryRun: options.dryRun,
          batchSize: Math.min(MAX_IMPORT_BATCH, Math.max(1, Number(options.batchSize) || 500)),
          checkpointPath: options.checkpoint,
          onProgress: (progress) =>
            process.stderr.write(`${tty ? "\r" : ""}${formatProgress(progress)}${tty ? "" : "\n"}`),
        });
      } catch (error) {
        if (error instanceof ImportFileError)
          throw new CliError(`${file}: ${error.message}; nothing was imported`, EXIT.badFile);
        throw error;
      }
      if (tty) process.stderr.write("\n");
      if (options.report) writeFileSync(options.report, JSON.stringify(report, null, 2));
      print(output, report, () =>
        [
          `${report.dry_run ? "Dry run: would import" : "Imported"} ${report.created} of ${report.records} record(s); ${report.existing} already there; ${report.skipped_count} skipped.`,
          ...(report.resumed_from_line ? [`Resumed after line ${report.resumed_from_line}.`] : []),
          ...report.skipped.map((skip) => `  line ${skip.line}: ${skip.reason}`),
        ].join("\n"),
      );
    });
}
