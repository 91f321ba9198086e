// A helper process of the benchmarks (the floor, the Better Auth peer, the proxy): one of bench/'s scripts run by
// Node with tsx, ready once its output shows the given line; answers its pid (for /proc) and how to stop it.
import { spawn } from "node:child_process";

export type Child = { pid: number; stop: () => Promise<void> };

export function startChild(
  script: string,
  ready: string,
  env: Record<string, string> = {},
  args: string[] = [],
): Promise<Child> {
  const child = spawn(
    process.execPath,
    ["--conditions=gatehouse-source", "--import", "tsx", script, ...args],
    { cwd: import.meta.dirname, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(ready) && child.pid !== undefined) resolve({ pid: child.pid, stop });
    });
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code} before "${ready}"`)));
  });
}
