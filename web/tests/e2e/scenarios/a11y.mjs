// Issue 17 item 9: axe-core finds no serious or critical violation on the lobby, the settings,
// a table of each game (playing, our turn: the board's targets shown), a finished table and its
// replay, and the first rules page of each game.
import { guest, openTable } from '../lib/ui.mjs';
import { checkAxe } from '../lib/axe.mjs';

export async function a11y(t) {
  const { page } = await guest(t);
  await page.waitForSelector('.your-games');
  await checkAxe(page, 'the lobby');
  await page.click('[data-action=settings]');
  await page.waitForSelector('section.settings');
  await checkAxe(page, 'the settings');
  let board;
  for (const game of ['bohnduell', 'phutball', 'biloba']) {
    await page.goto(`${t.server.base}/#/`);
    board = await openTable(page, { game, seats: ['cpu:random'] });
    await page.click('[data-action=start]');
    await page.waitForSelector('section.table[data-status=playing] .board');
    await page.waitForSelector('section.table[data-turn=mine]');
    await checkAxe(page, `a ${game} table`);
    await page.goto(`${t.server.base}/#/rules/${game}`);
    await page.waitForSelector('section.rules[data-rules-page="1"]');
    await checkAxe(page, `the rules of ${game}`);
  }
  // The Biloba table, resigned (a guest may have three tables), and its replay.
  await page.goto(`${t.server.base}/#/table/biloba/${board}`);
  await page.waitForSelector('section.table[data-turn=mine] [data-action=resign]');
  await page.click('[data-action=resign]');
  await checkAxe(page, 'the resign confirmation');
  await page.click('[data-action=confirm-resign]');
  await page.waitForSelector('.result-banner');
  await checkAxe(page, 'a finished table');
  await page.goto(`${t.server.base}/#/replay/biloba/${board}`);
  await page.waitForSelector('section.replay[data-shown-ply="0"] .board');
  await checkAxe(page, 'a replay');
}
