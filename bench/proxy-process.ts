// The round-robin proxy of the cluster suites (apps/server/src/testing/round-robin-proxy.ts) as a process of its
// own, so the benchmark's load generator and the proxy do not share one event loop:
// `proxy-process.ts <port> <backend url>...`; prints "proxy listening" once it does.
import { startProxy } from "@gatehouse/server/testing/round-robin-proxy";

const [port, ...backends] = process.argv.slice(2);
const proxy = await startProxy(() => backends, Number(port));
console.log(`proxy listening at ${proxy.url}`);
process.on("SIGTERM", () => void proxy.close().then(() => process.exit(0)));
