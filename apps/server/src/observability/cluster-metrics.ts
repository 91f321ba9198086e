// /metrics of a cluster (GATEHOUSE_WORKERS=N): one scrape of either port answers for every worker, not for the one
// worker the connection happened to reach. The primary asks each listening worker for its series over the cluster's
// IPC channel and merges the families with prom-client's AggregatorRegistry.aggregate. Each worker labels its series
// with its slot (worker="1"..."N"), so they sit side by side rather than summed: summed counters would drop whenever a
// worker restarts (its counts go with it), which Prometheus reads as a reset of the whole and turns into a false
// spike; a series per slot resets alone, as rate() expects, and a restarted worker takes its slot's series over
// instead of adding new ones. The primary serves the metrics port; a worker scraped on the API port relays to it.
import cluster, { type Worker } from "node:cluster";
import {
  AggregatorRegistry,
  type MetricObjectWithValues,
  type MetricValue,
  type Registry,
} from "prom-client";

/** What /metrics serves: one process's registry (metrics.ts), or the cluster's merged series. */
export type Exposition = { contentType: string; render(): Promise<string> };

type Series = MetricObjectWithValues<MetricValue<string>>[];
type Message =
  | { type: "gatehouse:metrics-collect"; id: number }
  | { type: "gatehouse:metrics-series"; id: number; series: Series }
  | { type: "gatehouse:metrics-ask"; id: number }
  | { type: "gatehouse:metrics-answer"; id: number; text?: string; error?: string };

/** A worker that has not answered by then (dying, or stuck) is left out of that scrape, rather than failing it. */
const COLLECT_TIMEOUT_MS = 3_000;
/** A relayed scrape waits for the primary's collection, and some more. */
const RELAY_TIMEOUT_MS = 2 * COLLECT_TIMEOUT_MS;

/** Sends `message` and waits for the answer with its id, or undefined after `timeoutMs`. */
function exchange<T extends Message>(
  send: (message: Message) => void,
  answers: Map<number, (answer: T) => void>,
  message: Message,
  timeoutMs: number,
): Promise<T | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => settle(undefined), timeoutMs);
    function settle(answer: T | undefined) {
      clearTimeout(timer);
      answers.delete(message.id);
      resolve(answer);
    }
    answers.set(message.id, settle);
    send(message);
  });
}

/** In the primary: the cluster's exposition, which also answers the workers that relay a scrape of the API port. */
export function primaryExposition(): Exposition {
  // Only workers that listen have their registry (and their message handler) in place; a starting one is skipped.
  const listening = new Set<Worker>();
  cluster.on("listening", (worker) => listening.add(worker));
  cluster.on("exit", (worker) => listening.delete(worker));
  const collected = new Map<
    number,
    (answer: Extract<Message, { type: "gatehouse:metrics-series" }>) => void
  >();
  let nextId = 0;

  async function render(): Promise<string> {
    const workers = [...listening].filter((worker) => worker.isConnected());
    const answers = await Promise.all(
      workers.map((worker) =>
        exchange(
          (m) => worker.send(m),
          collected,
          { type: "gatehouse:metrics-collect", id: nextId++ },
          COLLECT_TIMEOUT_MS,
        ),
      ),
    );
    const series = answers.flatMap((answer) => (answer ? [answer.series] : []));
    return AggregatorRegistry.aggregate(series).metrics();
  }

  cluster.on("message", (worker, message: Message) => {
    if (message?.type === "gatehouse:metrics-series") collected.get(message.id)?.(message);
    if (message?.type !== "gatehouse:metrics-ask") return;
    const reply = (answer: { text?: string; error?: string }) => {
      if (worker.isConnected()) worker.send({ type: "gatehouse:metrics-answer", id: message.id, ...answer });
    };
    render().then(
      (text) => reply({ text }),
      (error: Error) => reply({ error: error.message }),
    );
  });
  return { contentType: AggregatorRegistry.PROMETHEUS_CONTENT_TYPE, render };
}

/** In worker `slot`: answers the primary's collections with `registry`, and renders by asking the primary. */
export function workerExposition(registry: Registry, slot: string): Exposition {
  registry.setDefaultLabels({ worker: slot });
  const answered = new Map<
    number,
    (answer: Extract<Message, { type: "gatehouse:metrics-answer" }>) => void
  >();
  let nextId = 0;
  const send = (message: Message) => process.send?.(message);
  process.on("message", (message: Message) => {
    if (message?.type === "gatehouse:metrics-answer") answered.get(message.id)?.(message);
    if (message?.type !== "gatehouse:metrics-collect") return;
    registry.getMetricsAsJSON().then(
      (series) => send({ type: "gatehouse:metrics-series", id: message.id, series: series as Series }),
      // Nothing to send: the primary leaves this worker out of the scrape when its wait ends.
      () => {},
    );
  });
  return {
    contentType: registry.contentType,
    async render() {
      const answer = await exchange(
        send,
        answered,
        { type: "gatehouse:metrics-ask", id: nextId++ },
        RELAY_TIMEOUT_MS,
      );
      if (answer?.text === undefined)
        throw new Error(`cluster metrics: ${answer?.error ?? "the primary did not answer"}`);
      return answer.text;
    },
  };
}
