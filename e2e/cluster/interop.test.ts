// Stack Auth's published SDK (@stackframe/js 2.8.108) against a cluster: every interop scenario (e2e/interop, the
// same list sdk-interop.test.ts runs) through the round-robin proxy in front of three server processes, so that
// consecutive calls of one flow land on different processes and must agree.
import * as stack108 from "@stackframe/js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropInScenarios } from "../interop/drop-in/index.ts";
import { createExchangeLog, type ExchangeLog, type Mark } from "../interop/exchange-log.ts";
import { type Context, createContext, type Sdk, scenarios } from "../interop/scenarios.ts";
import { type Cluster, startCluster } from "./cluster.ts";

const realFetch = globalThis.fetch;
let cluster: Cluster;
let log: ExchangeLog;
let ctx: Context;
let mark: Mark;

const sdk: Sdk = {
  name: "@stackframe/js 2.8.108",
  tag: "c108",
  module: stack108,
  headerPrefix: "x-hexclave",
  options: {},
  emailTemplates: "internal-tsx",
};

beforeAll(async () => {
  cluster = await startCluster(3, {
    STACK_SEED_INTERNAL_PROJECT_OTP_ENABLED: "true",
    // Every scenario's request comes from one loopback address, beyond the default 600 a minute.
    GATEHOUSE_RATE_LIMIT_IP: "100000",
  });
  log = createExchangeLog(cluster.gateway.baseUrl, realFetch);
  ctx = createContext(sdk, cluster.gateway, log, realFetch);
  mark = log.mark();
  // Stack's SDK fetches through the global fetch.
  globalThis.fetch = log.fetch;
}, 180_000);

afterAll(async () => {
  globalThis.fetch = realFetch;
  await cluster?.stop();
});

describe("@stackframe/js 2.8.108 through a proxy in front of three processes", () => {
  for (const scenario of [...scenarios, ...dropInScenarios]) {
    it(scenario.name, () => scenario.run(ctx));
  }

  it("spread the calls over every process, none answered with a server error", () => {
    expect(cluster.proxy.served.every((n) => n > 20)).toBe(true);
    const failed = mark.since().filter((e) => e.status >= 500 || e.status === 429 || e.status === 0);
    expect(failed.map((e) => `${e.method} ${e.path.split("?")[0]} ${e.status}`)).toEqual([]);
  });
});
