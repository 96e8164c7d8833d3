// The pictures of the user guide (docs/USER_GUIDE.md, issue 17): the lobby, a table of each
// game (our turn, a Biloba pawn picked so that its targets and the hint show), the rules and
// the settings, at 1280 px and at 390 px (a phone). Written as guide-NAME-WIDTH.jpg to the
// artifacts; docs/guide/ holds a copy of them.
import { guest, openTable } from '../lib/ui.mjs';

const WIDTHS = [[1280, 900], [390, 844]];

async function shot(t, page, name, width) {
  await page.waitForTimeout(400); // the last move's animation (0.35 s) has ended
  await page.screenshot({ path: t.artifacts.path(`guide-${name}-${width}.jpg`), type: 'jpeg',
    quality: 70, fullPage: true, animations: 'disabled' });
}

export async function guide(t) {
  const { page } = await guest(t, { viewport: { width: 1280, height: 900 } });
  const boards = {};
  for (const game of ['bohnduell', 'phutball', 'biloba']) {
    await page.goto(`${t.server.base}/#/`);
    boards[game] = await openTable(page, { game, seats: ['cpu:3'] });
    await page.click('[data-action=start]');
    await page.waitForSelector('section.table[data-turn=mine] .board');
  }
  for (const [width, height] of WIDTHS) {
    await page.setViewportSize({ width, height });
    await page.goto(`${t.server.base}/#/`);
    await page.waitForSelector('.your-games li');
    await shot(t, page, 'lobby', width);
    for (const game of Object.keys(boards)) {
      await page.goto(`${t.server.base}/#/table/${game}/${boards[game]}`);
      await page.waitForSelector('section.table[data-turn=mine][data-busy=false] .step-hint');
      if (game === 'biloba') {
        await page.click('.board .clickable');
        await page.waitForSelector('.step-hint[data-hint="hint.biloba.destination"]');
      }
      await shot(t, page, game, width);
    }
    await page.goto(`${t.server.base}/#/rules/biloba`);
    await page.waitForSelector('section.rules[data-rules-page="1"]');
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector('section.rules[data-rules-page="2"]');
    await shot(t, page, 'rules', width);
    await page.goto(`${t.server.base}/#/settings`);
    await page.waitForSelector('section.settings');
    await shot(t, page, 'settings', width);
  }
}
