// A process that allocates like a busy server (heap-growth.test.ts): a long-lived set, and a stream of short-lived
// objects that each outlive a few young-generation collections (as a request's objects do while it waits on the
// database), so they are promoted and die in the old generation. Prints the largest old space it saw, in MiB.
import { getHeapSpaceStatistics } from "node:v8";
import { limitHeapGrowth } from "../heap-growth.ts";

if (process.argv[2] === "limited") limitHeapGrowth();
const live = Array.from({ length: 100_000 }, (_, i) => ({ id: i, name: `user-${i}`, tags: [i, i + 1] }));
const inFlight: unknown[] = new Array(50_000);
let largest = 0;
for (let i = 0; i < 4_000_000; i++) {
  inFlight[i % inFlight.length] = { i, text: `request ${i}`, parts: [i, { nested: i }] };
  if (i % 20_000 === 0) {
    const old = getHeapSpaceStatistics().find((space) => space.space_name === "old_space");
    largest = Math.max(largest, old?.space_size ?? 0);
  }
}
process.stdout.write(`${(largest / 2 ** 20).toFixed(1)} ${live.length}\n`);
