// A Node --import module for the start-up imports test: records the URL of every module the process loads (through
// a resolve hook in the loader thread, reported over a MessagePort) in globalThis.__gatehouseImported.
import { register } from "node:module";
import { MessageChannel } from "node:worker_threads";

const { port1, port2 } = new MessageChannel();
const imported = new Set();
port1.on("message", (url) => imported.add(url));
port1.unref();
globalThis.__gatehouseImported = imported;
register("./import-recorder-hooks.mjs", import.meta.url, { data: { port: port2 }, transferList: [port2] });
