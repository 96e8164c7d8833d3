// Phone width (390×844): the lobby, a table and the rules fit the screen without sideways
// scrolling, and the moves are played by tapping.
import { assert, assertEqual, guest, openTable, readTable, rng } from '../lib/ui.mjs';
import * as strategies from './strategies.mjs';

const WIDTH = 390;

async function fits(page, what) {
  const { scroll, inner, board } = await page.evaluate(() => {
    const b = document.querySelector('.board svg')?.getBoundingClientRect();
    return { scroll: document.documentElement.scrollWidth, inner: window.innerWidth,
      board: b ? { left: b.left, right: b.right, width: b.width } : null };
  });
  assertEqual(inner, WIDTH, 'the viewport width');
  assert(scroll <= WIDTH, `${what}: no sideways scrolling (page ${scroll} px wide)`);
  if (board) {
    assert(board.left >= 0 && board.right <= WIDTH && board.width >= WIDTH * 0.8,
      `${what}: the board fills the width (${JSON.stringify(board)})`);
  }
}

export async function phone(t) {
  const { page } = await guest(t, { viewport: { width: WIDTH, height: 844 } });
  await fits(page, 'lobby');
  await t.artifacts.page(page, 'phone-lobby');
  for (const game of ['bohnduell', 'phutball', 'biloba']) {
    await page.goto(`${t.server.base}/#/`);
    await page.waitForSelector('[data-action=create]');
    // Biloba with four players here (the four colours at phone width).
    await openTable(page, game === 'biloba'
      ? { game, players: 4, seats: ['cpu:1', 'cpu:random', 'cpu:1'] } : { game, seats: ['cpu:1'] });
    await page.click('[data-action=start]');
    await page.waitForSelector('section.table[data-status=playing] .board');
    // Two moves of ours by tapping, then the picture.
    const strategy = game === 'bohnduell' ? strategies.bohnduell(rng(3))
      : game === 'phutball' ? strategies.phutball(rng(3)) : strategies.anyTarget(rng(3));
    for (let moves = 0; moves < 2;) {
      await page.waitForSelector('section.table[data-turn=mine][data-busy=false] .board :is([data-step], .clickable)');
      const before = await readTable(page);
      await strategy(before, page);
      await page.waitForFunction((b) => {
        const t = document.querySelector('section.table');
        return t.dataset.busy === 'false' && (t.dataset.ply !== b.ply ||
          document.querySelector('.board').dataset.prefix !== b.prefix);
      }, { ply: String(before.ply), prefix: before.prefix.join(' ') });
      if (Number(await page.getAttribute('section.table', 'data-ply')) !== before.ply) moves++;
    }
    await fits(page, game);
    await t.artifacts.page(page, `phone-${game}`);
    if (game === 'bohnduell') {
      // Resigning: the seat that resigns loses.
      const label = await page.$eval('section.table li[data-seat="1"]', (li) => li.textContent.split(':')[0]);
      await page.click('[data-action=resign]');
      // A tap on Resign only asks (issue 17): the game goes on until confirmed.
      await page.waitForSelector('.confirm[role=alertdialog]');
      await fits(page, 'the confirmation');
      assertEqual(await page.getAttribute('section.table', 'data-status'), 'playing', 'still playing');
      await page.click('[data-action=confirm-resign]');
      await page.waitForSelector('.result-dialog .result');
      assertEqual(await page.getAttribute('.result-dialog .result', 'data-result'), label === 'A' ? '0-1' : '1-0',
        `resigning as ${label}`);
      assert((await page.textContent('.result-dialog .result')).includes('resignation'), 'the reason shown');
      await fits(page, 'the result');
      await t.artifacts.page(page, 'phone-bohnduell-result');
    }
  }
  t.log('phone: the lobby, three tables (Biloba with four players) and a result fit 390 px');
}
