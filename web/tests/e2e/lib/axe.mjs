// Accessibility check with axe-core (npm, the engine of the browsers' own audits): runs it in
// the page as it stands and fails on any serious or critical violation (issue 17 item 9),
// naming the rule and the first elements it found.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { assert } from './ui.mjs';

const source = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export async function checkAxe(page, what) {
  // Evaluated, not a <script> tag: a Content-Security-Policy may forbid inline scripts.
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(source);
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
  });
  assert(violations.length === 0, `axe on ${what}:\n    ${violations.join('\n    ')}`);
  return violations;
}
