// Commands that work on the server's own database rather than through its API: start, migrate, projects, export
// (with password hashes, which no API returns), backup and restore. On PGlite they need the server stopped (one
// process opens an embedded database); on PostgreSQL they run beside it.
import { spawnSync } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { Command } from "commander";
import type { Database } from "../db/client.ts";
import { databaseLocation } from "./database-location.ts";
import { CliError, EXIT, print, table } from "./output.ts";

const json = (command: Command) => command.option("--json", "print JSON for scripts", false);

// The server's modules load only when a command needs them: `gatehouse --help` or a remote command starts in a
// fraction of the time.
const withDatabase: typeof import("./local-database.ts").withDatabase = async (work, options) =>
  (await import("./local-database.ts")).withDatabase(work, options);

async function depsFor(database: Database) {
  const { loadServerSecret } = await import("../data-dir.ts");
  const { createDeps } = await import("../deps.ts");
  const { silentLogger } = await import("../logger.ts");
  const location = databaseLocation();
  const secret =
    process.env.GATEHOUSE_SECRET ??
    (location.kind === "pglite" ? loadServerSecret(location.dataDir) : undefined);
  if (!secret) throw new CliError("GATEHOUSE_SECRET is needed with DATABASE_URL", EXIT.usage);
  return createDeps({
    database,
    secret,
    baseUrl: process.env.GATEHOUSE_BASE_URL ?? "http://localhost:8102",
    logger: silentLogger,
  });
}

/** What a restored or backed-up database must show: the migrations table and the internal project. */
async function verify(database: Database): Promise<{ migrations: number; projects: number }> {
  const { count, sql } = await import("drizzle-orm");
  const { projects } = await import("../db/schema.ts");
  const migrations = await database.db.execute(
    sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
  );
  const [row] = await database.db.select({ n: count() }).from(projects);
  const rows = (migrations as unknown as { rows: { n: number }[] }).rows;
  return { migrations: Number(rows[0]?.n ?? 0), projects: Number(row?.n ?? 0) };
}

/** Opens a PGlite dump in memory and verifies it; a dump that does not open is a broken backup. */
async function verifyDump(dump: Blob) {
  const { openPglite } = await import("../db/client.ts");
  const copy = await openPglite({ dump }).catch((error: Error) => {
    throw new CliError(`the backup does not open (${error.message})`, EXIT.failure);
  });
  try {
    return await verify(copy);
  } finally {
    await copy.close();
  }
}

/**
 * The running server's copy of its embedded database (`GET /internal/backup`), asked with the internal project's
 * admin key: GATEHOUSE_ADMIN_KEY, or the one the server generated into the data directory this command can read.
 */
async function serverBackup(dataDir: string, url: string): Promise<Blob> {
  const { loadGeneratedInternalKeys } = await import("../data-dir.ts");
  const keysFile = join(dataDir, "internal-keys.json");
  const adminKey =
    process.env.GATEHOUSE_ADMIN_KEY ??
    (existsSync(keysFile) ? loadGeneratedInternalKeys(dataDir).superSecretAdminKey : undefined);
  if (!adminKey)
    throw new CliError("the internal project's admin key is needed: set GATEHOUSE_ADMIN_KEY", EXIT.usage);
  const response = await fetch(`${url.replace(/\/+$/, "")}/api/v1/internal/backup`, {
    headers: {
      "x-stack-access-type": "admin",
      "x-stack-project-id": "internal",
      "x-stack-super-secret-admin-key": adminKey,
    },
  }).catch((error: Error) => {
    throw new CliError(
      `the server holds the data directory but does not answer at ${url} (${error.message}); set --url or GATEHOUSE_URL`,
      EXIT.unreachable,
    );
  });
  if (!response.ok) {
    const code = response.headers.get("x-stack-known-error") ?? "";
    throw new CliError(
      `the server refused the backup: ${response.status} ${code} ${await response.text()}`,
      EXIT.failure,
    );
  }
  return response.blob();
}

export function registerDatabaseCommands(program: Command): void {
  program
    .command("start")
    .description("start the server (the same as npm start's server; settings from the environment)")
    .action(async () => {
      await import("../main.ts");
      // main.ts keeps the process alive; never fall through to the CLI's exit.
      await new Promise(() => {});
    });

  json(program.command("migrate").description("apply pending database migrations")).action(
    async (options: { json: boolean }) => {
      const result = await withDatabase(
        async (database) => {
          await database.exclusive(() => database.migrate());
          return verify(database);
        },
        { create: true },
      );
      print(options, result, () => `Database migrated (${result.migrations} migrations applied in total).`);
    },
  );

  const projectsCommand = program.command("projects").description("the projects in this database");
  json(projectsCommand.command("list").description("list projects")).action(
    async (options: { json: boolean }) => {
      const { asc } = await import("drizzle-orm");
      const { projects } = await import("../db/schema.ts");
      const rows = await withDatabase((database) =>
        database.db.select().from(projects).orderBy(asc(projects.createdAt)),
      );
      const list = rows.map((p) => ({
        id: p.id,
        display_name: p.displayName,
        created_at: p.createdAt.toISOString(),
      }));
      print(options, list, () => table(list, ["id", "display_name", "created_at"]));
    },
  );
  json(projectsCommand.command("create").description("create a project and its first key set (shown once)"))
    .requiredOption("--name <name>", "display name")
    .option("--description <text>", "description")
    .action(async (options: { json: boolean; name: string; description?: string }) => {
      const result = await withDatabase(async (database) => {
        const { inTransaction } = await import("../db/client.ts");
        const deps = await depsFor(database);
        const project = await deps.projects.create({
          displayName: options.name,
          ...(options.description ? { description: options.description } : {}),
        });
        const { keys } = await inTransaction(deps.db, (tx) =>
          deps.apiKeys.save(tx, project.id, {
            description: "created by gatehouse CLI",
            expiresAt: new Date(Date.now() + 365 * 24 * 3600 * 1000),
            keys: { pck: true, ssk: true, sak: true },
          }),
        );
        return {
          id: project.id,
          display_name: options.name,
          publishable_client_key: keys.pck,
          secret_server_key: keys.ssk,
          super_secret_admin_key: keys.sak,
        };
      });
      print(options, result, () =>
        Object.entries(result)
          .map(([key, value]) => `${key.padEnd(24)}${value}`)
          .join("\n"),
      );
    });

  program
    .command("export")
    .description("write a project's users in the generic import format (NDJSON), password hashes included")
    .argument("[file]", "output file (default stdout)")
    .requiredOption("--project <id>", "project id")
    .action(async (file: string | undefined, options: { project: string }) => {
      const out = file ? createWriteStream(file, { mode: 0o600 }) : process.stdout;
      const { exportUsers } = await import("../importers/export.ts");
      const written = await withDatabase((database) => exportUsers(database.db, options.project, out));
      if (file)
        await new Promise<void>((resolve, reject) =>
          (out as ReturnType<typeof createWriteStream>).end((error?: Error | null) =>
            error ? reject(error) : resolve(),
          ),
        );
      process.stderr.write(`Exported ${written} user(s).\n`);
    });

  json(
    program
      .command("backup")
      .description(
        "write a backup of the whole database, consistent while the server runs (PGlite: the running server makes it)",
      )
      .argument("<file>"),
  )
    .option("--url <url>", "the running server, for PGlite (env GATEHOUSE_URL)", process.env.GATEHOUSE_URL)
    .action(async (file: string, options: { json: boolean; url?: string }) => {
      const location = databaseLocation();
      if (location.kind === "postgres") {
        // pg_dump reads one snapshot: consistent while the server writes.
        const run = spawnSync("pg_dump", ["--format=custom", "--file", file, location.url], {
          stdio: ["ignore", "inherit", "pipe"],
        });
        if (run.status !== 0)
          throw new CliError(`pg_dump failed: ${run.stderr?.toString().trim()}`, EXIT.failure);
        print(options, { file, kind: "postgres" }, () => `Backed up PostgreSQL to ${file}.`);
        return;
      }
      const { DatabaseInUseError } = await import("./local-database.ts");
      let made = "directory" as "directory" | "server";
      const dump = await withDatabase(async (database) => {
        const client = (database.db as unknown as { $client: PGlite }).$client;
        return client.dumpDataDir("gzip");
      }).catch(async (error: unknown) => {
        if (!(error instanceof DatabaseInUseError)) throw error;
        // The server holds the directory: it makes the copy itself, between transactions.
        made = "server";
        return serverBackup(location.dataDir, options.url ?? "http://localhost:8102");
      });
      const bytes = Buffer.from(await dump.arrayBuffer());
      writeFileSync(file, bytes, { mode: 0o600 });
      // Verified the way restore reads it: the copy opens, with its migrations and projects.
      const result = await verifyDump(dump);
      print(
        options,
        { file, kind: "pglite", made_by: made, bytes: bytes.length, ...result },
        () =>
          `Backed up PGlite (${result.projects} projects${made === "server" ? ", made by the running server" : ""}) to ${file}.`,
      );
    });

  json(
    program
      .command("restore")
      .description("restore a backup into an empty data directory or database, then verify it")
      .argument("<file>"),
  )
    .option("--force", "replace an existing PGlite data directory", false)
    .action(async (file: string, options: { json: boolean; force: boolean }) => {
      if (!existsSync(file)) throw new CliError(`${file}: no such file`, EXIT.badFile);
      const location = databaseLocation();
      if (location.kind === "postgres") {
        const run = spawnSync(
          "pg_restore",
          ["--clean", "--if-exists", "--no-owner", "--dbname", location.url, file],
          { stdio: ["ignore", "inherit", "pipe"] },
        );
        if (run.status !== 0)
          throw new CliError(`pg_restore failed: ${run.stderr?.toString().trim()}`, EXIT.failure);
      } else {
        const dataDir = join(location.dataDir, "data");
        if (existsSync(dataDir) && !options.force)
          throw new CliError(`${dataDir} exists; --force replaces it`, EXIT.usage);
        // Check the backup opens before the current data is touched.
        const { openPglite } = await import("../db/client.ts");
        const probe = await openPglite({ dump: new Blob([readFileSync(file)]) }).catch((error: Error) => {
          throw new CliError(`${file}: not a readable backup (${error.message})`, EXIT.badFile);
        });
        await probe.close();
        rmSync(dataDir, { recursive: true, force: true });
        mkdirSync(location.dataDir, { recursive: true, mode: 0o700 });
        const restored = await openPglite({ dataDir, dump: new Blob([readFileSync(file)]) });
        await restored.close();
      }
      const result = await withDatabase(verify);
      if (result.projects === 0)
        throw new CliError("the restored database has no projects: not a Gatehouse backup", EXIT.badFile);
      print(
        options,
        { file, ...result },
        () => `Restored and verified: ${result.migrations} migrations, ${result.projects} projects.`,
      );
    });
}
