// axe-core over a whole page, for the browser suites' accessibility checks: injected through the DevTools protocol
// (page.evaluate), since a page's CSP rightly refuses an injected <script>, then run over the document. Answers the
// serious and critical violations, one line each with the elements they concern, so a failure says what to fix.
import axe from "axe-core";
import type { Page } from "playwright-core";
import { expect } from "vitest";

const SEVERE = new Set(["serious", "critical"]);

export async function severeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axe.source);
  const results = await page.evaluate(() =>
    (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ["violations"] }),
  );
  return results.violations
    .filter((violation) => SEVERE.has(violation.impact ?? ""))
    .map(
      (violation) =>
        `${violation.impact} ${violation.id} (${violation.help}): ` +
        violation.nodes.map((node) => `${node.html} ${node.failureSummary ?? ""}`).join("; "),
    );
}

/** No serious or critical accessibility violation on the page as it is now. */
export async function expectAccessible(page: Page): Promise<void> {
  expect(await severeViolations(page)).toEqual([]);
}

/** How many violations of each impact axe finds on the page as it is now (for the recorded figures). */
export async function violationsByImpact(page: Page): Promise<Record<string, number>> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axe.source);
  const results = await page.evaluate(() =>
    (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ["violations"] }),
  );
  const counts: Record<string, number> = {};
  for (const violation of results.violations) {
    const impact = violation.impact ?? "unknown";
    counts[impact] = (counts[impact] ?? 0) + 1;
  }
  return counts;
}
