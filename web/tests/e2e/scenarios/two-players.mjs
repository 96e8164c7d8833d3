// Two browsers (two contexts, two guests) play BohnDuell against each other, with a third
// guest watching: the table list, taking a seat, spectators, chat, an undo asked and granted,
// the whole game, and the same result and moves everywhere.
import { assert, assertEqual, checkBoard, guest, openTable, playToEnd, rng } from '../lib/ui.mjs';
import { checkFinished } from './vs-cpu.mjs';
import * as strategies from './strategies.mjs';

export async function twoPlayers(t) {
  const a = await guest(t);
  const b = await guest(t);
  const c = await guest(t);
  const board = await openTable(a.page, { game: 'bohnduell', seats: ['human'] });
  // B finds the table in the lobby's list (refreshed every few seconds) and sits down.
  const listed = b.page.locator(`.lobby .tables li[data-table="bohnduell/${board}"]`);
  await listed.waitFor({ timeout: 15000 });
  assert((await listed.textContent()).includes(`waiting for players — ${a.user} · free`), 'the table listed');
  // "Sit down" seats B at once (issue 17: it only made B a spectator).
  await listed.locator('a.action', { hasText: 'Sit down' }).click();
  await b.page.waitForSelector(`section.table li[data-seat="2"]:has-text("${b.user}")`);
  assertEqual(await b.page.evaluate(() => location.hash), `#/table/bohnduell/${board}`, 'the plain address');
  await a.page.waitForSelector(`section.table li[data-seat="2"]:has-text("${b.user}")`);
  // C watches: both players see C among the spectators.
  await c.page.goto(`${t.server.base}/#/table/bohnduell/${board}`);
  await c.page.waitForSelector(`section.table[data-board="${board}"][data-status=setup]`);
  for (const p of [a, b]) await p.page.waitForSelector(`.spectators [data-spectator="${c.user}"]`);
  assertEqual(await a.page.$$eval('.spectators li', (l) => l.map((x) => x.textContent)), [c.user],
    'the spectators list');
  await a.page.click('[data-action=start]');
  for (const p of [a, b, c]) await p.page.waitForSelector('section.table[data-status=playing] .board');
  // Chat reaches everyone at the table.
  await b.page.fill('[data-field=chat]', 'good luck');
  await b.page.press('[data-field=chat]', 'Enter');
  for (const p of [a, c]) await p.page.waitForSelector(`.chat li:has-text("${b.user}: good luck")`);
  // The first mover moves, asks to undo it; the other accepts: back to ply 0.
  await Promise.race([a, b].map((p) => p.page.waitForSelector('section.table[data-turn=mine] .board [data-step]')));
  const [first, second] = (await a.page.getAttribute('section.table', 'data-turn')) === 'mine' ? [a, b] : [b, a];
  await first.page.click('.board [data-step]');
  await first.page.waitForSelector('section.table[data-ply="1"]');
  await first.page.click('[data-action=undo]');
  await second.page.click('.request [data-action=accept]');
  for (const p of [a, b, c]) {
    await p.page.waitForSelector('section.table[data-ply="0"]');
    assertEqual(await p.page.$$eval('.move-list li[data-ply]', (l) => l.length), 0, 'the move list after the undo');
  }
  // A draw offer, refused.
  await second.page.click('[data-action=draw]');
  await second.page.click('[data-action=confirm-draw]');
  await first.page.waitForSelector(`.request:has-text("${second.user} offers a draw.")`);
  await first.page.click('.request [data-action=reject]');
  await first.page.waitForSelector('.request', { state: 'detached' });
  assertEqual(await first.page.getAttribute('section.table', 'data-status'), 'playing', 'still playing');
  // The game: A by mouse, B by keyboard.
  const inputs = await playToEnd([
    { page: a.page, strategy: strategies.bohnduell(rng(7)) },
    { page: b.page, strategy: strategies.bohnduell(rng(8), { keyboard: true }) },
  ]);
  const seen = [];
  for (const [p, who] of [[a, 'a'], [b, 'b']]) {
    seen.push(await checkFinished(t, p.page, 'bohnduell', board, `two-players-${who}`));
  }
  assertEqual(seen[0], seen[1], 'both players see the same game');
  // The spectator saw it all too.
  await c.page.waitForSelector('.result-dialog .result');
  assertEqual(await c.page.getAttribute('.result-dialog .result', 'data-result'), seen[0].result, 'the spectator\'s result');
  assertEqual(await c.page.$$eval('.move-list li[data-ply]', (l) => l.length), seen[0].moves.length, 'the spectator\'s move list');
  assertEqual(await checkBoard(c.page, 'bohnduell'), seen[0].position, 'the spectator\'s board');
  await t.artifacts.board(c.page, 'two-players-spectator-board');
  // Someone arriving after the end gets the moves from the record and the final board.
  const d = await guest(t);
  await d.page.goto(`${t.server.base}/#/table/bohnduell/${board}`);
  await d.page.waitForSelector('.result-dialog .result');
  await d.page.waitForFunction((n) => document.querySelectorAll('.move-list li[data-ply]').length === n,
    seen[0].moves.length);
  assertEqual(await d.page.$$eval('.move-list li[data-ply]', (l) => l.map((x) => x.textContent.split(': ')[1])),
    seen[0].moves.map((m) => m.move), 'a late visitor\'s move list');
  assertEqual(await checkBoard(d.page, 'bohnduell'), seen[0].position, 'a late visitor\'s board');
  // The spectator goes back to the lobby: no longer listed.
  await c.page.click('.result-dialog [data-action=lobby]');
  await c.page.waitForSelector('section.lobby');
  await a.page.waitForSelector(`.spectators [data-spectator="${c.user}"]`, { state: 'detached' });
  // Each player sees their own row at the bottom.
  const bottom = (p) => p.page.evaluate(() => {
    const ys = Object.fromEntries([...document.querySelectorAll('[data-bowl]')].map((g) => [g.dataset.bowl, Number(g.querySelector('circle').getAttribute('cy'))]));
    return ys.A1 > ys.B1 ? 'A' : 'B';
  });
  const labelOf = (p, user) => p.page.$eval(`section.table li[data-seat]:has-text("${user}")`, (li) => li.textContent.split(':')[0]);
  assertEqual(await bottom(a), await labelOf(a, a.user), 'A\'s row at the bottom of A\'s board');
  assertEqual(await bottom(b), await labelOf(b, b.user), 'B\'s row at the bottom of B\'s board');
  // …under their own name (the supply line under the board).
  const bottomName = (p) => p.page.$$eval('.bohnduell-board text.status', (ts) => ts[ts.length - 1].textContent.split(':')[0]);
  assertEqual(await bottomName(a), a.user, 'A\'s name under A\'s row');
  assertEqual(await bottomName(b), b.user, 'B\'s name under B\'s row');
  assert((await bottom(a)) !== (await bottom(b)), 'the two players see opposite sides');
  t.log(`two players: board ${board}, ${seen[0].moves.length} plies, ${inputs} inputs, result ${seen[0].result}`);
}
