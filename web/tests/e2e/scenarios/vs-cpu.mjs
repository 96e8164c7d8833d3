// A whole game against a CPU seat, then its replay step by step.
import * as pos from '../lib/positions.mjs';
import { assert, assertEqual, checkBoard, marksOf, openTable, guest, playToEnd } from '../lib/ui.mjs';
import { stepRules } from './rules.mjs';

// Checks a finished game on `page` against the server's record and board; returns
// { moves, result, position }.
export async function checkFinished(t, page, game, board, name) {
  const record = await t.server.record(game, board);
  const moves = pos.recordMoves(record);
  const result = pos.recordTag(record, 'Result');
  assert(result && result !== '*', `the record has a result (${result})`);
  await page.waitForSelector('.result-dialog .result');
  assertEqual(await page.getAttribute('.result-dialog .result', 'data-result'), result,
    'the result shown is the record\'s');
  const resultText = await page.textContent('.result-dialog .result');
  // Who won, the score where the game keeps one, then the result and the reason.
  assert(/^(.+ wins?|Draw)( \d+(–\d+)+)? \(/.test(resultText) && resultText.includes(`(${result}, `),
    `the result text (${resultText})`);
  const listed = await page.$$eval('section.table .move-list li[data-ply]', (lis) => lis.map((li) => li.textContent));
  assertEqual(listed.length, moves.length, 'the move list has the record\'s moves');
  assertEqual(listed.map((l) => l.slice(l.indexOf(': ') + 2)), moves.map((m) => m.move),
    'the move list is the record\'s');
  assertEqual(Number(await page.getAttribute('section.table', 'data-ply')), moves.length, 'the ply count');
  // Forced passes where the record has them (a seat-prefixed record names them: "A:pass").
  const entries = pos.recordEntries(record);
  if (entries.every((e) => e.seat)) {
    const all = await page.$$eval('section.table .move-list li', (lis) => lis.map((li) => li.textContent));
    assertEqual(all, entries.map((e) => `${e.seat}: ${e.move === 'pass' ? 'pass (no move)' : e.move}`),
      'the move list, forced passes included, is the record\'s');
  }
  const shown = await t.probe.ask(`${game} show ${board}`);
  assertEqual(shown.type, 'board', `show ${game} ${board}`);
  const last = moves[moves.length - 1];
  const position = await checkBoard(page, game, marksOf(game, last.move, last.seat || lastLabel(listed)));
  assertEqual(position, shown.position, 'the board shown is the server\'s final position');
  await t.artifacts.page(page, `${name}-final-page`);
  await page.click('.result-dialog [data-action=close-dialog]');
  // The result stays above the board once the box is closed, with the score and the reason.
  await checkBanner(page, game, result, position);
  await t.artifacts.board(page, `${name}-final-board`);
  return { moves, result, position };
}

// The banner of a finished game: its result, and the score the final position holds
// (BohnDuell: the stores; Biloba: the pawns of each seat; Phutball keeps none).
export async function checkBanner(page, game, result, position) {
  const banner = await page.$eval('.result-banner', (b) => ({
    result: b.dataset.result, score: b.querySelector('.score')?.textContent ?? null,
    headline: b.querySelector('.headline').textContent,
  }));
  let score = null;
  if (game === 'bohnduell') {
    const p = pos.bohnduell(position);
    score = `${p.A.store}–${p.B.store}`;
  } else if (game === 'biloba') {
    const p = pos.biloba(position);
    score = 'OBRG'.slice(0, p.players).split('')
      .map((c) => Object.values(p.pawns).filter((x) => x === c).length).join('–');
  }
  assertEqual({ result: banner.result, score: banner.score }, { result, score }, 'the result banner');
  assert(/ wins$|^Draw$| win$/.test(banner.headline), `the banner names the winner (${banner.headline})`);
}

const lastLabel = (listed) => listed[listed.length - 1].split(':')[0];

// Steps through the replay of a finished game (opened from the result dialog): the first
// position, every move with its mark, keyboard jumps, and the last position = `final`.
export async function checkReplay(t, page, game, board, moves, final, name) {
  await page.click('section.table [data-action=replay]');
  await page.waitForSelector('section.replay[data-shown-ply="0"] .board');
  assertEqual(Number(await page.getAttribute('section.replay', 'data-total')), moves.length,
    'the replay has every move');
  // The players, from the record's Seats tag: the guest and the computer.
  const players = await page.textContent('section.replay .replay-players');
  assert(/^guest\d+ – Computer, [\w ]+$|^Computer, [\w ]+ – guest\d+$/.test(players), `the replay's players (${players})`);
  const start = await t.probe.ask(`${game} show ${board}#0`);
  assertEqual(await checkBoard(page, game, []), start.position, 'the replay starts at the start');
  assertEqual(start.position, START[game], 'the start position');
  await t.artifacts.board(page, `${name}-replay-start`);
  for (let ply = 1; ply <= moves.length; ply++) {
    await page.click('section.replay [data-action=next]');
    await page.waitForSelector(`section.replay[data-shown-ply="${ply}"]`);
    const m = moves[ply - 1];
    const seat = m.seat || (await page.textContent(`section.replay .move-list li[data-ply="${ply}"]`)).split(':')[0];
    await checkBoard(page, game, marksOf(game, m.move, seat));
    if (ply === 1) await checkMotion(page, game);
    assertEqual(await page.$$eval('section.replay .move-list li[data-ply].current', (l) => l.length), 1, 'one current move');
    const current = await page.$eval('section.replay .move-list li[data-ply].current', (li) => Number(li.dataset.ply) - 1);
    assertEqual(current, ply - 1, 'the current move is marked in the list');
  }
  assertEqual(await checkBoard(page, game), final, 'the replay ends at the final board');
  await t.artifacts.board(page, `${name}-replay-end`);
  // Keys: Home, End, ←.
  await page.keyboard.press('Home');
  await page.waitForSelector('section.replay[data-shown-ply="0"]');
  await page.keyboard.press('End');
  await page.waitForSelector(`section.replay[data-shown-ply="${moves.length}"]`);
  await page.keyboard.press('ArrowLeft');
  await page.waitForSelector(`section.replay[data-shown-ply="${moves.length - 1}"]`);
  // A click on a move shows the position after it; the buttons' icons are drawn (inline SVG).
  await page.click('section.replay .move-list li[data-ply="2"] button');
  await page.waitForSelector('section.replay[data-shown-ply="2"] .move-list li[data-ply="2"].current');
  const icons = await page.$$eval('.replay-controls button svg.icon',
    (l) => l.map((svg) => Math.round(svg.getBoundingClientRect().width)));
  assertEqual(icons, [16, 16, 16, 16], 'four drawn icons');
}

// The standard start positions (game seat A, O, orange moves first whoever sits there).
const START = {
  bohnduell: 'A[0 0 0 0] s20 S0 · B[0 0 0 0] s20 S0 · A to move',
  phutball: 'ball=H10 men= turn=O ply=0',
  biloba: '##..O..##/#..OOO..#/..OOOOO../.OOOOOOO./....*..../.BBBBBBB./..BBBBB../#..BBB..#/##..B..## O 2',
};

// One game against `level`: `strategy(random)` plays the human seat. Options: clock (checks
// the clocks), rulesFromBoard (opens the rules from the table first).
// `hints`: an array for the hints seen before each input (`strategy` is then called with it
// to make the strategy); each must say what the click chooses.
export async function vsCpu(t, { game, level, strategy, clock, rulesFromBoard, hints, name = game }) {
  if (hints) strategy = strategy(hints);
  const { page } = await guest(t);
  const board = await openTable(page, { game, seats: [`cpu:${level}`], clock });
  if (rulesFromBoard) {
    await page.click('section.table [data-action=rules]');
    await stepRules(t, page, game, { keyboard: true, name: `${name}-from-board` });
    await page.waitForSelector(`section.table[data-board="${board}"]`);
  }
  await page.click('[data-action=start]');
  await page.waitForSelector('section.table[data-status=playing] .board');
  if (clock) await checkClocks(page);
  await t.artifacts.board(page, `${name}-start-board`);
  const inputs = await playToEnd([{ page, strategy }]);
  const { moves, result, position } = await checkFinished(t, page, game, board, name);
  if (hints) checkHints(t, hints);
  await checkReplay(t, page, game, board, moves, position, name);
  t.log(`${name}: board ${board}, ${moves.length} plies, ${inputs} inputs, result ${result}`);
}

// The Biloba hints seen while playing: each one of the known sentences (refills included when
// the game had any: a pawn to choose, then its emptied square).
function checkHints(t, hints) {
  const known = [/^Choose the pawn to move\.$/, /^Choose where the pawn on [a-i][1-9] goes: /,
    /^The pawn stands on the centre: /, /^Pawns were taken: choose the pawn that refills( [a-i][1-9]| an emptied square)\.$/,
    /^Choose the emptied square that the pawn on [a-i][1-9] refills\.$/];
  const unknown = hints.filter((h) => !known.some((k) => k.test(h ?? '')));
  assertEqual(unknown, [], 'every Biloba hint says what the click chooses');
  const counts = known.map((k) => hints.filter((h) => k.test(h)).length);
  t.log(`biloba hints: ${counts.join(' / ')} (select / destination / centre / refill pawn / refill square)`);
}

// Both clocks shown (Fischer 5 min + 5 s); on our turn ours counts down, the other stands.
async function checkClocks(page) {
  await page.waitForSelector('section.table[data-turn=mine] .clocks .clock');
  assertEqual(await page.$$eval('.clocks .clock', (c) => c.length), 2, 'two clocks');
  const read = () => page.$$eval('.clocks .clock', (cs) => cs.map((c) => ({
    running: c.dataset.running === 'true', left: Number(c.dataset.leftMs), text: c.querySelector('.time').textContent,
  })));
  const before = await read();
  assertEqual(before.filter((c) => c.running).length, 1, 'one clock runs');
  assert(before.every((c) => /^\d+:\d\d$/.test(c.text) && c.left <= 305000 && c.left > 280000),
    `clocks start near 5:00 (${JSON.stringify(before)})`);
  await page.waitForTimeout(1300);
  const after = await read();
  const i = before.findIndex((c) => c.running);
  assert(after[i].running && after[i].left <= before[i].left - 1000,
    `the running clock ticks (${before[i].left} -> ${after[i].left})`);
  assertEqual(after[1 - i].left, before[1 - i].left, 'the other clock stands still');
}

// The move just shown is animated: the piece that arrived (or the bowl) has its CSS animation,
// and the Phutball ball slides (a transition on its transform).
async function checkMotion(page, game) {
  const motion = await page.evaluate(() => {
    const board = document.querySelector('.board');
    const arrived = board.querySelector('g.last .bowl, .point.last .man, .square.last .pawn');
    const ball = board.querySelector('.ball');
    return {
      animation: arrived ? getComputedStyle(arrived).animationName : 'none',
      transition: ball ? getComputedStyle(ball).transitionProperty : '',
    };
  });
  assertEqual(motion.animation, game === 'bohnduell' ? 'pulse' : 'arrive', 'the last move is animated');
  if (game === 'phutball') assertEqual(motion.transition, 'transform', 'the ball slides');
}
