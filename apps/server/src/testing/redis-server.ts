// A real redis-server of a test's own, on a free port, with nothing kept on disk: a suite can kill it and start it
// again on the same port (an outage and a return), and share it with no other run.
import { type ChildProcess, spawn } from "node:child_process";
import { freePort } from "./server-process.ts";

export type RedisServer = {
  url: string;
  port: number;
  /** Ends the server at once (SIGKILL), as a crash or a lost host would. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
};

export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess = await launch(port);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    },
    async restart() {
      child = await launch(port);
    },
  };
}

async function launch(port: number): Promise<ChildProcess> {
  const child = spawn(
    process.env.REDIS_SERVER ?? "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Ready to accept connections")) resolve(child);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`redis-server exited (${code}):\n${output}`)));
  });
}
