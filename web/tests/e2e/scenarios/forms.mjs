// The lobby's forms are built from /api/games (issue 13 item 9): a three-player Biloba
// challenge (the players option, a second opponent field, a CPU seat) seats everyone with the
// game's seat labels; a BohnDuell table opened with a switch and a choice from the folded
// options carries exactly those options.
import { assert, assertEqual, guest } from '../lib/ui.mjs';
import * as pos from '../lib/positions.mjs';

export async function forms(t) {
  const a = await guest(t);
  const b = await guest(t);
  // The bots offered follow the game: Biloba's own player `classic`, with the ladder's searches.
  const bots = async (game) => {
    await a.page.selectOption('[data-field=game]', game);
    return a.page.$$eval('[data-field=seat2] option', (l) => l.map((o) => `${o.value} ${o.title}`.trim()));
  };
  const biloba = await bots('biloba');
  assertEqual(JSON.stringify(biloba.slice(2, 4).concat(biloba.slice(-1))),
    JSON.stringify(['cpu:random', 'cpu:1 alpha-beta, 100 nodes', 'cpu:classic']), 'Biloba bots');
  assertEqual((await bots('bohnduell')).at(-1), 'cpu:5 exact solver, else alpha-beta, 300000 nodes',
    'BohnDuell bots end with the exact solver');
  await a.page.selectOption('[data-field=challenge-game]', 'biloba');
  await a.page.selectOption('[data-field=challenge-players]', '3');
  await a.page.fill('[data-field=challenge-user]', b.user);
  await a.page.selectOption('[data-field=challenge-kind2]', 'cpu:1');
  await a.page.click('[data-action=challenge]');
  await a.page.waitForSelector('section.table[data-game=biloba][data-status=playing] .board');
  const board = Number(await a.page.getAttribute('section.table', 'data-board'));
  const seats = await a.page.$$eval('section.table aside .seats li .seat-name', (l) => l.map((e) => e.textContent.trim()));
  assertEqual(JSON.stringify(seats),
    JSON.stringify([`O: ${a.user}`, `B: ${b.user}`, 'R: Computer, level 1']), 'three seats, labelled');
  // Each with its colour and its pawns on the board (issue 17 item 5).
  const counts = await a.page.$$eval('section.table aside .seats li', (l) => l.map((e) => [
    getComputedStyle(e.querySelector('.swatch')).backgroundColor, e.querySelector('.count').textContent]));
  const pawns = Object.values(pos.biloba(await a.page.getAttribute('.board', 'data-position')).pawns);
  assertEqual(counts, [['rgb(243, 156, 18)', ` · ${pawns.filter((c) => c === 'O').length} pawns`],
    ['rgb(36, 113, 163)', ` · ${pawns.filter((c) => c === 'B').length} pawns`],
    ['rgb(192, 57, 43)', ` · ${pawns.filter((c) => c === 'R').length} pawns`]], 'swatches and pawn counts');
  const notice = b.page.locator(`.challenges [data-challenge="biloba/${board}"]`);
  await notice.waitFor({ timeout: 10000 });
  assert((await notice.textContent()).includes(`${a.user} – ${b.user} – Computer, level 1`),
    `the notice names the three players (${await notice.textContent()})`);
  await t.artifacts.page(a.page, 'forms-biloba-three');

  // A new BohnDuell table with the extra-turn switch on and B (table seat 2) moving first.
  await a.page.click('header h1 a');
  await a.page.selectOption('[data-field=game]', 'bohnduell');
  await a.page.click('[data-field=options] summary');
  await a.page.check('[data-field=option-extra_turn]');
  await a.page.selectOption('[data-field=option-start]', '2');
  assertEqual(await a.page.getAttribute('[data-field=preset]', 'data-preset'), '', 'no preset matches any more');
  await t.artifacts.page(a.page, 'forms-options');
  await a.page.click('[data-action=create]');
  await a.page.waitForSelector('section.table[data-game=bohnduell]');
  const opened = Number(await a.page.getAttribute('section.table', 'data-board'));
  const listed = await a.page.evaluate(async (n) => {
    const tables = await (await fetch('/api/tables')).json();
    return (Array.isArray(tables) ? tables : tables.tables).find((x) => x.game === 'bohnduell' && x.board === n);
  }, opened);
  assertEqual(listed?.options, 'extra_turn=yes,start=2', 'the table has the options chosen');
  t.log(`forms: biloba ${board} with three players, bohnduell ${opened} (${listed?.options})`);
}
