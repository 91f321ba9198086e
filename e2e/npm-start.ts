// `npm start` as a newcomer runs it (scripts/start.ts): the server on a database of its own with the demo app beside
// it, read from what it prints: the demo app's URL and the demo project's keys from the banner.
import { freePort } from "@gatehouse/server/testing/server-process";
import { startIsolatedServer } from "./support.ts";

export type ProjectKeys = { pck: string; ssk: string; sak: string };

/** The keys the banner prints under "Demo project keys", or a failure that shows the banner. */
function demoKeysFrom(output: string): ProjectKeys {
  const found =
    /Demo project keys \(project id: demo\):\n\s+publishable client key:\s+(\S+)\n\s+secret server key:\s+(\S+)\n\s+super secret admin key:\s+(\S+)/.exec(
      output,
    );
  if (!found?.[1] || !found[2] || !found[3])
    throw new Error(`No demo project keys in the banner:\n${output}`);
  return { pck: found[1], ssk: found[2], sak: found[3] };
}

/**
 * `npm start` with the dashboard served from `dashboardDir` (a build of the test's own, or none: then nothing is
 * built in the repository), once the demo app runs. `stop` ends both and removes the data.
 */
export async function startNpmStart(name: string, dashboardDir: string, env: Record<string, string> = {}) {
  const gatehouse = await startIsolatedServer(
    name,
    { GATEHOUSE_DASHBOARD_DIR: dashboardDir, GATEHOUSE_DEMO_PORT: String(await freePort()), ...env },
    "scripts/start.ts",
  );
  const { server } = gatehouse;
  // The demo is built once the server listens; its line follows the banner (a deadline, not a timing assertion).
  const deadline = Date.now() + 120_000;
  let demoUrl: string | undefined;
  while (!demoUrl) {
    demoUrl = /Demo app \(project "demo"\) is running at (\S+)/.exec(server.output())?.[1];
    const failed = server.output().includes("The demo app did not start");
    if (!demoUrl && (failed || server.child.exitCode !== null || Date.now() > deadline)) {
      await gatehouse.stop().catch(() => {});
      throw new Error(`The demo app did not start:\n${server.output()}`);
    }
    if (!demoUrl) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { ...gatehouse, demoUrl, demoKeys: demoKeysFrom(server.output()) };
}
