import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * Accessibility checks with axe-core for the browser tests. A serious or critical violation fails
 * the test; minor and moderate ones (e.g. heading order, region) are not gated here.
 */

type AxeResults = Awaited<ReturnType<AxeBuilder['analyze']>>;
export type AxeViolation = AxeResults['violations'][number];

const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

/**
 * The serious and critical violations axe finds on the page as it is now (every rule axe runs by
 * default). In axe's legacy mode: one axe.run in the page. The default runs axe per frame and then
 * opens a blank page to merge the frames' results, injecting axe-core (600 kB) three times: 1.5 to
 * 2 times as long a scan for the same results on Inkwell's pages, which have no frames (a
 * cross-origin frame is all legacy mode would leave out).
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  const results = await new AxeBuilder({ page }).setLegacyMode().analyze();
  return results.violations.filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? ''));
}

/** One line per rule, then one per element: its CSS target and what axe says is wrong with it. */
export function describeViolations(violations: AxeViolation[]): string {
  return violations
    .map((violation) => {
      const nodes = violation.nodes.map((node) => {
        const reason = (node.failureSummary ?? '')
          .split('\n')
          .map((line) => line.trim())
          .filter((line) => line && !/^Fix (any|all) of the following:$/.test(line))
          .join(' ');
        return `    ${node.target.join(' >>> ')}: ${reason}`;
      });
      return `  ${violation.id} (${violation.impact}, ${violation.nodes.length}): ${violation.help}\n${nodes.join('\n')}`;
    })
    .join('\n');
}

/**
 * Fails, listing every serious or critical violation with its targets, when axe finds any on
 * the page. `where` names the page and state in the message (e.g. '/blog (dark)').
 */
export async function expectNoSeriousViolations(page: Page, where = page.url()): Promise<void> {
  const violations = await seriousViolations(page);
  const count = violations.reduce((sum, violation) => sum + violation.nodes.length, 0);
  // The count, not the objects: the message lists what matters, a diff of axe's results would bury it.
  expect(count, `${count} serious or critical accessibility violation(s) on ${where}:\n${describeViolations(violations)}\n`).toBe(0);
}
