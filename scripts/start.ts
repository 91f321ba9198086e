// `npm start`: the Gatehouse server with its dashboard and, beside it, the demo app (apps/demo) on its own project,
// for a developer to try every page at once. The dashboard is built first when its build is missing or stale (the
// server serves it under /dashboard). The server's output passes through; once it is listening the demo is built
// and served, and its URL printed. Ctrl-C stops both. GATEHOUSE_DEMO=off starts the server without the demo.
// The demo project (only it) gets the development OAuth provider, so its GitHub and Google buttons work without keys;
// webhooks may go to local addresses.
import { spawn } from "node:child_process";
import { buildDashboard, dashboardNeedsBuild } from "../apps/dashboard/build.ts";

const demoWanted = process.env.GATEHOUSE_DEMO !== "off";
const demoPort = Number(process.env.GATEHOUSE_DEMO_PORT ?? 8103);

if (!process.env.GATEHOUSE_DASHBOARD_DIR && dashboardNeedsBuild()) {
  process.stdout.write("Building the dashboard…\n");
  await buildDashboard();
}

/**
 * Test identities for the demo project's OAuth buttons, unless the developer set the switch themselves. Never for the
 * internal project (its first user becomes the operator), and never with NODE_ENV=production, where the server
 * refuses the switch.
 */
const developmentOAuth =
  process.env.GATEHOUSE_DEVELOPMENT_OAUTH ??
  (demoWanted && process.env.NODE_ENV !== "production" ? "demo" : undefined);

/**
 * Webhooks to the developer's own machine (a local receiver added in the dashboard), unless the developer set the
 * switch themselves. Never with NODE_ENV=production: there a project's webhooks must not reach the server's network.
 */
const allowPrivateWebhookUrls =
  process.env.GATEHOUSE_WEBHOOK_ALLOW_PRIVATE_URLS ??
  (process.env.NODE_ENV !== "production" ? "true" : undefined);

/** The same for SSO identity providers (a Keycloak on the developer's machine), with its own switch. */
const allowPrivateSsoUrls =
  process.env.GATEHOUSE_SSO_ALLOW_PRIVATE_URLS ??
  (process.env.NODE_ENV !== "production" ? "true" : undefined);

/**
 * The server's output reaches the terminal through this process, so its stdout is a pipe and it would write JSON:
 * at a terminal it is told to write readable lines, in colour (NO_COLOR still turns colour off), unless the
 * developer chose a format.
 */
const readableLog =
  process.stdout.isTTY && !process.env.GATEHOUSE_LOG_FORMAT
    ? { GATEHOUSE_LOG_FORMAT: "pretty", FORCE_COLOR: process.env.FORCE_COLOR ?? "1" }
    : {};

const server = spawn(
  process.execPath,
  ["--conditions=gatehouse-source", "--import", "tsx", "apps/server/src/main.ts"],
  {
    env: {
      ...process.env,
      ...readableLog,
      GATEHOUSE_DEMO_PROJECT: demoWanted ? "on" : "off",
      // The demo app is the demo project's trusted domain, so links and the dashboard's Impersonate lead to it.
      ...(demoWanted ? { GATEHOUSE_DEMO_URL: `http://localhost:${demoPort}` } : {}),
      ...(developmentOAuth === undefined ? {} : { GATEHOUSE_DEVELOPMENT_OAUTH: developmentOAuth }),
      ...(allowPrivateWebhookUrls === undefined
        ? {}
        : { GATEHOUSE_WEBHOOK_ALLOW_PRIVATE_URLS: allowPrivateWebhookUrls }),
      ...(allowPrivateSsoUrls === undefined ? {} : { GATEHOUSE_SSO_ALLOW_PRIVATE_URLS: allowPrivateSsoUrls }),
    },
    stdio: ["inherit", "pipe", "inherit"],
  },
);

let demo: { url: string; close: () => Promise<void> } | undefined;
let demoStarted = false;
let output = "";

server.stdout.on("data", (chunk: Buffer) => {
  process.stdout.write(chunk);
  if (!demoWanted || demoStarted) return;
  output += chunk.toString();
  const running = /Gatehouse is running at (\S+)/.exec(output);
  if (running?.[1]) {
    demoStarted = true;
    void startDemoBeside(running[1]);
  }
});

async function startDemoBeside(gatehouseUrl: string) {
  process.stdout.write(`Building the demo app for ${gatehouseUrl}…\n`);
  try {
    const { startDemo } = await import("../apps/demo/serve.ts");
    demo = await startDemo({ port: demoPort, gatehouseUrl, projectId: "demo" });
    process.stdout.write(`\nDemo app (project "demo") is running at ${demo.url}\n\n`);
  } catch (error) {
    process.stderr.write(
      `The demo app did not start: ${(error as Error).message}\nThe server keeps running.\n`,
    );
  }
}

server.on("exit", async (code) => {
  await demo?.close();
  process.exit(code ?? 1);
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    // The demo's preview server (vite) ends this process on SIGTERM, before the Gatehouse server has stopped (exit
    // 143, the server orphaned). Closing it first withdraws that handler; this process then exits with the server.
    void demo?.close();
    server.kill(signal);
  });
}
