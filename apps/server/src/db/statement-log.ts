// A bench-only statement log: with GATEHOUSE_BENCH_STATEMENT_LOG set to a file, every statement the PostgreSQL pool
// sends is appended to it, one line each, so `npm run bench:statements` can count and list the statements of one
// operation. Off unless the variable is set; statement texts carry no parameters, so no secret reaches the file.
import { appendFileSync } from "node:fs";
import type { QueryObserver } from "./client.ts";

const noop = () => {};

/** The observer for GATEHOUSE_BENCH_STATEMENT_LOG, or undefined when it is unset. */
export function benchStatementLog(env: NodeJS.ProcessEnv = process.env): QueryObserver | undefined {
  const path = env.GATEHOUSE_BENCH_STATEMENT_LOG;
  if (!path) return undefined;
  // Written synchronously at the moment the statement is sent, so the file is complete when the response arrives.
  return (text) => {
    appendFileSync(path, `${text.replace(/\s+/g, " ").trim()}\n`);
    return noop;
  };
}

/** Both observers on one query (tracing and the statement log), either of which may be absent. */
export function bothObservers(a?: QueryObserver, b?: QueryObserver): QueryObserver | undefined {
  if (!a || !b) return a ?? b;
  return (text) => {
    const endA = a(text);
    const endB = b(text);
    return (error) => {
      endA(error);
      endB(error);
    };
  };
}
