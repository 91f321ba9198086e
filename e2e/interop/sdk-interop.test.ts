// Interop: the same scenarios (scenarios.ts) run with three SDKs against one real Gatehouse server process on
// loopback: Stack Auth's published SDK at 2.8.108 (x-hexclave-* headers) and 2.8.102 (x-stack-* headers), and our
// own @gatehouse/sdk. Every exchange is recorded (exchange-log.ts) so that a failure names the failing call: Stack's
// SDKs fetch through globalThis.fetch, which is swapped for the recording fetch while their scenarios run; ours is
// given the recording fetch in its constructor options and leaves the global alone.
import * as ours from "@gatehouse/sdk";
import type { RunningServer } from "@gatehouse/server/testing/server-process";
import * as stack108 from "@stackframe/js";
import * as stack102 from "@stackframe/js-2.8.102";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startIsolatedServer } from "../support.ts";
import { dropInScenarios } from "./drop-in/index.ts";
import { createExchangeLog, type Exchange, type ExchangeLog, type Mark } from "./exchange-log.ts";
import { type Context, createContext, type Sdk, type SdkModule, scenarios } from "./scenarios.ts";

const realFetch = globalThis.fetch;
let gatehouse: Awaited<ReturnType<typeof startIsolatedServer>>;
let server: RunningServer;
let log: ExchangeLog;

beforeAll(async () => {
  gatehouse = await startIsolatedServer("sdk-interop", {
    STACK_SEED_INTERNAL_PROJECT_OTP_ENABLED: "true",
    // The three SDKs make some 650 requests a minute from one loopback address, beyond the default 600 per IP.
    GATEHOUSE_RATE_LIMIT_IP: "100000",
  });
  server = gatehouse.server;
  log = createExchangeLog(server.baseUrl, realFetch);
});

afterAll(async () => {
  globalThis.fetch = realFetch;
  await gatehouse?.stop();
});

const SDKS: (Sdk & { usesGlobalFetch: boolean })[] = [
  {
    name: "@stackframe/js 2.8.108",
    tag: "s108",
    module: stack108,
    headerPrefix: "x-hexclave",
    options: {},
    emailTemplates: "internal-tsx",
    usesGlobalFetch: true,
  },
  {
    name: "@stackframe/js 2.8.102",
    tag: "s102",
    module: stack102 as unknown as SdkModule,
    headerPrefix: "x-stack",
    options: {},
    emailTemplates: "internal-tsx",
    usesGlobalFetch: true,
  },
  {
    name: "@gatehouse/sdk",
    tag: "ours",
    module: ours as unknown as SdkModule,
    headerPrefix: "x-stack",
    options: { fetch: (input, init) => log.fetch(input, init) },
    emailTemplates: "wire",
    usesGlobalFetch: false,
  },
];

describe.each(SDKS)("$name against Gatehouse", (sdk) => {
  let ctx: Context;
  let sdkMark: Mark;

  beforeAll(() => {
    ctx = createContext(sdk, server, log, realFetch);
    sdkMark = log.mark();
    if (sdk.usesGlobalFetch) globalThis.fetch = log.fetch;
  });

  afterAll(() => {
    globalThis.fetch = realFetch;
  });

  for (const scenario of [...scenarios, ...dropInScenarios]) {
    it(scenario.name, () => scenario.run(ctx));
  }

  // Run after the scenarios: everything the SDK called is a route Gatehouse serves, and nothing broke the server.
  it("made only calls that Gatehouse serves, none answered with a server error", () => {
    const line = (e: Exchange) => `${e.method} ${e.path.split("?")[0]} ${e.status} ${e.body.slice(0, 200)}`;
    const exchanges = sdkMark.since();
    const unserved = exchanges.filter(
      (e) => (e.status === 404 && e.body === "Not found.") || e.status === 405,
    );
    expect(unserved.map(line)).toEqual([]);
    expect(exchanges.filter((e) => e.status >= 500 || e.status === 429 || e.status === 0).map(line)).toEqual(
      [],
    );
  });
});
