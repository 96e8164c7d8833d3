// The rules pages draw real positions (issue 17 item 6): on every Biloba page, each diagram's
// pawns, as the SVG board draws them, are the position the rules engine (`plateau board`)
// reaches by the diagram's record, and the targets marked are the engine's legal next clicks
// (`plateau moves`). Pages are turned with the Next and Previous buttons; axe on a page with
// three diagrams.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertEqual, guest } from '../lib/ui.mjs';
import { checkAxe } from '../lib/axe.mjs';
import { enginePosition, engineSteps } from '../lib/replay.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const DATA = JSON.parse(readFileSync(resolve(here, '../../../src/rules/diagrams.json'), 'utf8'));
const TITLES = ['The goal', 'Moving', 'Jumping', 'Taking and replacing', 'The special tile', 'End of game'];

export async function rulesPositions(t) {
  const { page } = await guest(t);
  await page.selectOption('[data-field=game]', 'biloba');
  await page.click('.lobby a[href="#/rules/biloba"]');
  const pages = DATA.pages.biloba;
  assertEqual(pages.length, 6, 'six pages, as biloba 0.9.3\'s help');
  for (let n = 1; n <= pages.length; n++) {
    await page.waitForSelector(`section.rules[data-rules-page="${n}"]`);
    assertEqual(await page.textContent('section.rules h3'), TITLES[n - 1], `page ${n}'s title`);
    assertEqual(await page.isDisabled('[data-action=rules-previous]'), n === 1, `Previous on page ${n}`);
    const drawn = await page.$$eval('section.rules .diagram', (figures) => figures.map((f) => ({
      record: f.dataset.record,
      plies: Number(f.dataset.plies),
      pawns: Object.fromEntries([...f.querySelectorAll('[data-square]')]
        .filter((g) => g.querySelector('.pawn'))
        .map((g) => [g.dataset.square, g.querySelector('.pawn').dataset.pawn])
        .sort(([a], [b]) => a.localeCompare(b))),
      targets: [...f.querySelectorAll('[data-square]')].filter((g) => g.querySelector('.target'))
        .map((g) => g.dataset.square).sort(),
      selected: [...f.querySelectorAll('[data-square].selected')].map((g) => g.dataset.square).sort(),
    })));
    assertEqual(drawn.map((d) => `${d.record}@${d.plies}`), pages[n - 1].map((d) => `${d.record}@${d.plies}`),
      `page ${n} draws its diagrams`);
    for (const [i, d] of pages[n - 1].entries()) {
      const record = DATA.records[d.record];
      const engine = enginePosition(t.server.binary, record, d.plies);
      assertEqual(drawn[i].pawns, engine.pawns, `page ${n} diagram ${i + 1}: the pawns after ${d.plies} moves`);
      // The targets marked are exactly what a player building this move would be offered.
      const offered = d.prefix || d.steps ? engineSteps(t.server.binary, record, d.plies, d.prefix ?? []) : [];
      assertEqual(drawn[i].targets, offered, `page ${n} diagram ${i + 1}: the targets marked`);
      assertEqual(drawn[i].selected, [...new Set(d.prefix ?? [])].sort(), `page ${n} diagram ${i + 1}: the move being built`);
    }
    if (n === 4) await checkAxe(page, 'a rules page with three diagrams');
    if (n === 2) {
      // Previous goes back a page, Next forward again.
      await page.click('[data-action=rules-previous]');
      await page.waitForSelector('section.rules[data-rules-page="1"]');
      await page.click('[data-action=rules-next]');
      await page.waitForSelector('section.rules[data-rules-page="2"]');
    }
    assertEqual(await page.textContent('[data-action=rules-next]'), n === pages.length ? 'Back' : 'Next', 'the Next button');
    await page.click('[data-action=rules-next]');
  }
  await page.waitForSelector('section.lobby');
  t.log(`rules positions: ${pages.flat().length} Biloba diagrams are the engine's positions`);
}
