// How far V8 lets the heap grow past what it holds (issue 24). Under request load V8 grows the old generation by up
// to four times its live data between full collections when the process allocates fast, which every busy server does:
// measured on the compiled server under 10 connections of GET /users/me and of refresh, the old space reached
// 92-107 MiB for 25-35 MiB of live objects and the process 211-229 MiB. A growth of 30 % past the live size after each
// full collection held the old space at 35 MiB and the process at 154-157 MiB, with the server's CPU per request
// within the run-to-run noise (0.41-0.51 ms against 0.41-0.53). V8 reads the factor at every collection, so setting it
// at start is enough; an operator's own `--heap-growing-percent` on the command line wins.
import { setFlagsFromString } from "node:v8";

export const HEAP_GROWING_PERCENT = 30;
const FLAG = "--heap-growing-percent";

/** Called first thing in the server process (main.ts); a no-op when the flag was given to node. */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv): void {
  if (execArgv.some((arg) => arg.startsWith(FLAG))) return;
  setFlagsFromString(`${FLAG}=${HEAP_GROWING_PERCENT}`);
}
