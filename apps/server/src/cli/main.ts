// The `gatehouse` command: parses arguments (commander), runs one command, and exits with a documented code
// (docs/cli.md). Commands that talk to a running server live in commands-*.ts beside this file.
import { Command, CommanderError } from "commander";
import { registerDatabaseCommands } from "./commands-database.ts";
import { registerImport } from "./commands-import.ts";
import { registerProjectCommands } from "./commands-project.ts";
import { registerKeys, registerUsers } from "./commands-users.ts";
import { describeError, EXIT } from "./output.ts";

export function buildProgram(): Command {
  const program = new Command("gatehouse")
    .description("Gatehouse: run the server, manage projects and users, import from other auth providers")
    .version(process.env.npm_package_version ?? "0.1.0")
    .showHelpAfterError()
    .exitOverride();
  registerDatabaseCommands(program);
  registerProjectCommands(program);
  registerUsers(program);
  registerKeys(program);
  registerImport(program);
  // Every subcommand throws instead of exiting, so one place maps errors to exit codes.
  const override = (command: Command) => {
    command.exitOverride();
    command.commands.forEach(override);
  };
  override(program);
  return program;
}

export async function run(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv, { from: "user" });
    return Number(process.exitCode ?? EXIT.ok);
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version "fail" with code 0; usage errors were already printed by commander.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    const { code, message } = describeError(error);
    process.stderr.write(`gatehouse: ${message}\n`);
    return code;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const code = await run(process.argv.slice(2));
  // Open handles (database pools, timers of the services) must not keep a finished command alive.
  process.exit(code);
}
