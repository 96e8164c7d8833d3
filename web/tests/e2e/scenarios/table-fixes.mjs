// Issue 17 item 1: what a player met at the table, each fixed and checked here. The other
// player is the probe (a WebSocket of its own), so that every move is known in advance.
//  - phutball-path: a point under the dashed line of the last jump takes the click (play H11,
//    H9, H10-H12, H11, H13, H12-H10, then H11); a spectator arriving later reads every move
//    with its side letter, as the players do.
//  - time-loss: the loser's clock shows 0:00 after a loss on time, also after a reload (the
//    server's clocks), and the result stays in a banner with its reason.
//  - start-seats: "Start the game" with a free seat is disabled and says why; the free seat can
//    be given to the computer, then the game starts.
//  - forced-pass: a BohnDuell pass shows in the move list where the record has it.
import { assert, assertEqual, clickTarget, guest, inputAndWait, probe, readTable } from '../lib/ui.mjs';

// Plays `steps` (clicks on board points) as the player of `page`, each once it is offered.
async function clicks(page, steps) {
  for (const step of steps) {
    await page.waitForSelector(`section.table[data-turn=mine][data-busy=false] .board .clickable[data-point="${step}"]`);
    await inputAndWait(page, () => clickTarget(page, step), await readTable(page));
  }
}

// A guest on `page` and the probe at a new board (the guest first), the guest at the table.
async function challenged(t, spec, options = '') {
  const a = await guest(t);
  const other = await probe(t.browser, t.server.base);
  t.contexts.push({ pages: () => [], close: () => other.close() }); // closed after the scenario
  const made = await other.ask(`${spec} challenge ${options}${a.user} ${other.user}`.replace(/\s+/g, ' '));
  assertEqual(made.type, 'challenge', `the challenge (${made.message ?? ''})`);
  await a.page.goto(`${t.server.base}/#/table/${spec}/${made.board}`);
  await a.page.waitForSelector(`section.table[data-board="${made.board}"][data-status=playing] .board`);
  return { a, other, board: made.board };
}

const moveTexts = (page) => page.$$eval('.move-list li', (l) => l.map((x) => x.textContent));

export async function phutballPath(t) {
  const { a, other, board } = await challenged(t, 'phutball');
  const theirs = async (move, ply) => {
    const reply = await other.ask(`phutball move ${board} ${move}#${ply}`);
    assertEqual(reply.type, 'move', `${move} played`);
    await a.page.waitForSelector(`section.table[data-ply="${ply}"]`);
  };
  // Each goal says whose it is (Ohs, the first player, scores beyond the top line).
  assertEqual(await a.page.$$eval('.goal-label', (l) => l.map((x) => [x.dataset.goal, x.textContent])),
    [['top', `goal of ${a.user}: the ball here wins`], ['bottom', `goal of ${other.user}: the ball here wins`]],
    'the goals drawn');
  assertEqual(await a.page.textContent('.step-hint'),
    'Place a man on an empty point, or click the ball to jump it over men.', 'what a click does');
  await clicks(a.page, ['H11']);
  await theirs('H9', 2);
  await clicks(a.page, ['H10', 'H12']);
  await theirs('H11', 4);
  await clicks(a.page, ['H13']);
  await theirs('H12-H10', 6);
  assertEqual(await a.page.getAttribute('.board', 'data-last'), 'H12 H10', 'the last jump drawn');
  await clicks(a.page, ['H11']); // under the dashed line of the last jump
  await a.page.waitForSelector('section.table[data-ply="7"]');
  const shown = await other.ask(`phutball show ${board}`);
  assertEqual(shown.position.split(' ').slice(0, 2).join(' '), 'ball=H10 men=H9,H11,H13',
    'H11 placed under the line');
  const listed = await moveTexts(a.page);
  assertEqual(listed.map((l) => l.split(': ')[1]), ['H11', 'H9', 'H10-H12', 'H11', 'H13', 'H12-H10', 'H11'],
    'the players\' move list');
  assert(listed.every((l) => /^[A-Z]: /.test(l)), `every move with its side (${listed})`);
  // A spectator who arrives now reads the moves from the record: the same list, sides included.
  const c = await guest(t);
  await c.page.goto(`${t.server.base}/#/table/phutball/${board}`);
  await c.page.waitForFunction(() => document.querySelectorAll('.move-list li').length === 7);
  assertEqual(await moveTexts(c.page), listed, 'the spectator\'s move list, sides included');
}

export async function timeLoss(t) {
  const { a, other, board } = await challenged(t, 'phutball', '-clock=move:8 ');
  await clicks(a.page, ['H11']);
  assertEqual((await other.ask(`phutball move ${board} H9#2`)).type, 'move', 'H9 played');
  // Our turn, and we let the 8 s run out (8: the first click must come in time on a loaded machine).
  const banner = '.result-banner[data-reason=time]';
  await a.page.waitForSelector(banner, { timeout: 15000 });
  const clocks = () => a.page.$$eval('.clocks .clock', (cs) => Object.fromEntries(
    cs.map((c) => [c.dataset.user, c.querySelector('.time').textContent])));
  assertEqual((await clocks())[a.user], '0:00', 'the loser\'s clock at the end');
  assertEqual(await a.page.textContent(`${banner} .headline`), `${other.user} wins`, 'the winner');
  assertEqual(await a.page.textContent(`${banner} .reason`), 'time out', 'the reason');
  assertEqual(await moveTexts(a.page), ['O: H11', 'X: H9', 'O: out of time'], 'the move list ends with the loss');
  await a.page.click('.result-dialog [data-action=close-dialog]');
  assert(await a.page.isVisible(banner), 'the banner stays once the box is closed');
  await a.page.reload();
  await a.page.waitForSelector('.result-banner');
  await a.page.waitForSelector('.clocks .clock');
  assertEqual(await clocks(), { [a.user]: '0:00', [other.user]: '0:08' }, 'the clocks after a reload');
}

export async function startSeats(t) {
  const a = await guest(t);
  await a.page.selectOption('[data-field=game]', 'bohnduell');
  await a.page.selectOption('[data-field=seat2]', 'human');
  await a.page.click('[data-action=create]');
  await a.page.waitForSelector('section.table[data-status=setup] [data-action=start]');
  assert(await a.page.isDisabled('[data-action=start]'), 'Start is disabled with a free seat');
  assertEqual(await a.page.textContent('.start-reason'),
    'Every seat needs a player before the start: seat B is free. Wait for a friend, or: Seat B: Computer, level 3',
    'why, and what to do');
  await a.page.click('[data-action=cpu2]');
  await a.page.waitForSelector('section.table li[data-seat="2"]:has-text("B: Computer, level 3")');
  assert(await a.page.isEnabled('[data-action=start]'), 'Start once every seat is taken');
  await a.page.click('[data-action=start]');
  await a.page.waitForSelector('section.table[data-status=playing]');
  // The move buttons say what they cost without a hover (a phone has none), in good English.
  const s4 = 'section.table[data-turn=mine] .board [data-step=S4]';
  await a.page.waitForSelector(s4);
  assertEqual([await a.page.textContent(`${s4} .cost`), await a.page.getAttribute(s4, 'title')],
    ['1 ball', 'Put one ball from your supply into bowl 4 and each bowl behind it (1 ball)'], 'S4 explained');
  assertEqual(await a.page.textContent('.board [data-step=S1] .cost'), '4 balls', 'S1 explained');
}

// Biloba says what each click chooses (issue 17 item 4), in English and in French.
export async function bilobaHints(t) {
  for (const lang of ['en', 'fr']) {
    const a = await guest(t, { query: `?lang=${lang}` });
    await a.page.selectOption('[data-field=game]', 'biloba');
    await a.page.selectOption('[data-field=seat2]', 'cpu:random');
    await a.page.click('[data-action=create]');
    await a.page.click('[data-action=start]');
    await a.page.waitForSelector('section.table[data-turn=mine][data-busy=false] .board .clickable');
    const hint = () => a.page.textContent('.step-hint');
    assertEqual(await hint(), lang === 'en' ? 'Choose the pawn to move.' : 'Choisissez le pion à déplacer.',
      'the first click');
    const from = await a.page.getAttribute('.board .clickable', 'data-square');
    await inputAndWait(a.page, () => clickTarget(a.page, from), await readTable(a.page));
    assertEqual(await hint(), lang === 'en'
      ? `Choose where the pawn on ${from} goes: a square next to it, a jump, or the centre.`
      : `Choisissez où va le pion de ${from} : une case voisine, un saut, ou le centre.`, 'the second click');
    // Coordinates around the board: files a–i, ranks 1–9.
    assertEqual(await a.page.$$eval('.biloba-board .coord', (l) => l.map((x) => x.textContent).join('')),
      'abcdefghi987654321', 'the coordinates');
    await t.artifacts.page(a.page, `biloba-hints-${lang}`);
  }
}

// BohnDuell with a supply of 3: A S2, B S3 (stealing A's bowl 2): A has no move and passes, B
// plays S4 and wins 1-0 in stores. The pass is in the move list where the record has it, at
// the table and in the replay; the banner keeps the score.
export async function forcedPass(t) {
  const { a, other, board } = await challenged(t, 'bohnduell', '-supply=3 ');
  await a.page.waitForSelector('section.table[data-turn=mine] .board [data-step=S2]');
  await inputAndWait(a.page, () => a.page.click('.board [data-step=S2]'), await readTable(a.page));
  for (const [move, ply] of [['S3', 2], ['S4', 3]]) {
    assertEqual((await other.ask(`bohnduell move ${board} ${move}#${ply}`)).type, 'move', `${move} played`);
  }
  await a.page.waitForSelector('.result-banner');
  const expected = ['A: S2', 'B: S3', 'A: pass (no move)', 'B: S4'];
  assertEqual(await moveTexts(a.page), expected, 'the move list with the pass');
  assert((await t.server.record('bohnduell', board)).includes('A:S2 B:S3 A:pass B:S4'), 'the record has the pass');
  assertEqual(await a.page.$eval('.result-banner', (b) => [b.dataset.result, b.querySelector('.headline').textContent,
    b.querySelector('.score').textContent, b.querySelector('.reason').textContent]),
  ['0-1', `${other.user} wins`, '0–1', 'end of the game'], 'the banner');
  await a.page.goto(`${t.server.base}/#/replay/bohnduell/${board}`);
  await a.page.waitForFunction(() => document.querySelectorAll('section.replay .move-list li').length === 4);
  assertEqual(await moveTexts(a.page), expected, 'the replay\'s move list with the pass');
}
