// The order test files start in. With two files at a time, a long suite that starts last holds the run open while the
// other worker idles: in a fresh clone (no vitest cache, as in CI) vitest orders by project name, then by file size,
// and the PostgreSQL run of the 90-second interop suite, a short file, started last. So the suites that drive server
// processes, Chromium or a cluster start first, in every project at once, and the in-process suites fill the gaps.
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Path prefixes of the long suites, longest kind first (measured: each file takes 10 to 90 s). */
const LONG_FIRST = [
  "e2e/interop/",
  "e2e/browser/stack-",
  "e2e/browser/",
  "apps/server/src/fuzz/",
  "e2e/cluster/",
  "e2e/packages/",
  "e2e/",
];

function rank(file: string): number {
  const index = LONG_FIRST.findIndex((prefix) => file.startsWith(prefix));
  return index === -1 ? LONG_FIRST.length : index;
}

export class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // The base order (failed, then longest by the cache, then largest) within a rank; groups still run in order.
    const base = await super.sort(files);
    const root = this.ctx.config.root;
    const key = (spec: TestSpecification) => [
      spec.project.config.sequence.groupOrder,
      rank(relative(root, spec.moduleId)),
      base.indexOf(spec),
    ];
    return [...files].sort((a, b) => {
      const [ka, kb] = [key(a), key(b)];
      return ka[0] - kb[0] || ka[1] - kb[1] || ka[2] - kb[2];
    });
  }
}
