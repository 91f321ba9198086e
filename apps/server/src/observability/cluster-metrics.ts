// /metrics of a cluster (GATEHOUSE_WORKERS=N): one scrape of either port answers the whole cluster, as operators of
// a single process expect, not one worker's share picked by the connection. prom-client's AggregatorRegistry, made
// for node:cluster, asks every worker for its registry and merges the series: counters and histograms summed, each
// gauge by its own rule (metrics.ts). The primary serves the metrics port itself; a worker scraped on the API port
// relays the scrape to the primary over the cluster's IPC channel.
import cluster from "node:cluster";
import { AggregatorRegistry, type Registry } from "prom-client";

/** What /metrics serves: one process's registry (metrics.ts), or the cluster's merged series. */
export type Exposition = { contentType: string; render(): Promise<string> };

const ASK = "gatehouse:metrics-ask";
const ANSWER = "gatehouse:metrics-answer";
/** Longer than the aggregator's own five seconds for a worker that does not answer, so its error is the one told. */
const RELAY_TIMEOUT_MS = 10_000;

type Ask = { type: typeof ASK; id: number };
type Answer = { type: typeof ANSWER; id: number; text?: string; error?: string };

/** In the primary: the cluster's exposition, which also answers the workers that relay a scrape. */
export function primaryExposition(): Exposition {
  const aggregator = new AggregatorRegistry();
  cluster.on("message", (worker, message: Partial<Ask>) => {
    if (message?.type !== ASK) return;
    const reply = (answer: Omit<Answer, "type" | "id">) => {
      if (worker.isConnected()) worker.send({ type: ANSWER, id: message.id, ...answer });
    };
    aggregator.clusterMetrics().then(
      (text) => reply({ text }),
      (error: Error) => reply({ error: error.message }),
    );
  });
  return { contentType: aggregator.contentType, render: () => aggregator.clusterMetrics() };
}

/** In a worker: offers `registry` to the primary's aggregation, and renders by asking the primary for the whole. */
export function workerExposition(registry: Registry): Exposition {
  AggregatorRegistry.setRegistries([registry]);
  // Its constructor is what makes this worker answer the primary's requests for its series.
  new AggregatorRegistry();
  const pending = new Map<number, (answer: Answer) => void>();
  let nextId = 0;
  process.on("message", (message: Partial<Answer>) => {
    if (message?.type === ANSWER && typeof message.id === "number")
      pending.get(message.id)?.(message as Answer);
  });
  return {
    contentType: registry.contentType,
    render: () =>
      new Promise<string>((resolve, reject) => {
        const id = nextId++;
        const timer = setTimeout(
          () => settle({ type: ANSWER, id, error: "the primary did not answer" }),
          RELAY_TIMEOUT_MS,
        );
        function settle(answer: Answer) {
          clearTimeout(timer);
          pending.delete(id);
          if (answer.text !== undefined) resolve(answer.text);
          else reject(new Error(`cluster metrics: ${answer.error ?? "no answer"}`));
        }
        pending.set(id, settle);
        process.send?.({ type: ASK, id } satisfies Ask);
      }),
  };
}
