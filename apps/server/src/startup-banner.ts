// What a start prints for the person who ran it: the address, the API, the dashboard and the seeded projects' keys.
// Written by the process itself, or by the primary of a cluster (GATEHOUSE_WORKERS) once every worker listens.
import type { Config } from "./config.ts";
import { loadGeneratedDemoKeys, loadGeneratedInternalKeys, type ProjectKeys } from "./data-dir.ts";

export type StartupKeys = { keys: ProjectKeys; demoKeys: ProjectKeys | undefined };

/** The internal project's keys (the variables, else those generated into the data directory) and the demo's. */
export function startupKeys(config: Config, dataDir: string): StartupKeys {
  const generated = loadGeneratedInternalKeys(dataDir);
  const keys = {
    publishableClientKey: config.seed.publishableClientKey ?? generated.publishableClientKey,
    secretServerKey: config.seed.secretServerKey ?? generated.secretServerKey,
    superSecretAdminKey: config.seed.superSecretAdminKey ?? generated.superSecretAdminKey,
  };
  return { keys, demoKeys: config.demoProject ? loadGeneratedDemoKeys(dataDir) : undefined };
}

export function printBanner(config: Config, { keys, demoKeys }: StartupKeys): void {
  process.stdout.write(
    [
      "",
      `Gatehouse is running at ${config.baseUrl}`,
      `  API:         ${config.baseUrl}/api/v1   (reference: ${config.baseUrl}/api/v1/docs)`,
      `  Dashboard:   ${config.baseUrl}/dashboard`,
      "  Internal project keys (project id: internal):",
      `    publishable client key:  ${keys.publishableClientKey}`,
      `    secret server key:       ${keys.secretServerKey}`,
      `    super secret admin key:  ${keys.superSecretAdminKey}`,
      // The demo project (`npm start`): the dashboard shows it to the operators; these keys are for code and curl.
      ...(demoKeys
        ? [
            "  Demo project keys (project id: demo):",
            `    publishable client key:  ${demoKeys.publishableClientKey}`,
            `    secret server key:       ${demoKeys.secretServerKey}`,
            `    super secret admin key:  ${demoKeys.superSecretAdminKey}`,
          ]
        : []),
      "",
    ].join("\n"),
  );
}
