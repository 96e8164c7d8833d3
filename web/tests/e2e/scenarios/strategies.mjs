// How the test players choose their inputs. Every choice comes from a seeded generator, so a
// run repeats itself (the CPU players are seeded by the server per game).
import * as pos from '../lib/positions.mjs';
import { assert, assertEqual, clickTarget, pick } from '../lib/ui.mjs';

// BohnDuell: a harvest when there is one (games end sooner), else any move; by mouse, or by
// keyboard (focus the first move button, arrow keys to the chosen one, Enter).
export function bohnduell(random, { keyboard = false } = {}) {
  return async (s, page) => {
    const harvests = s.targets.filter((t) => t.startsWith('H'));
    const choice = pick(random, harvests.length > 0 ? harvests : s.targets);
    if (!keyboard) return clickTarget(page, choice);
    await page.focus('.board [data-step]');
    for (let i = 0; i < s.targets.indexOf(choice); i++) await page.keyboard.press('ArrowRight');
    const focused = await page.evaluate(() => document.activeElement?.dataset.step);
    assertEqual(focused, choice, 'arrow keys moved the focus to the chosen move');
    return page.keyboard.press('Enter');
  };
}

// Phutball with a purpose: build an unbroken line of men from the ball towards our goal, then
// jump it. A jump is taken hop by hop, always to the landing nearest the goal, and played only
// if it ends nearer the goal than the ball started (else the move is started again and a man
// placed instead).
export function phutball(random) {
  let refusedJumpAt = -1;
  return async (s, page) => {
    const p = pos.phutball(s.position);
    const up = p.turn === 'O'; // Ohs aims at row 19 and beyond, Eks at row 1 and beyond
    const progress = (point) => (up ? 1 : -1) * pos.phutballRow(point);
    const scored = (point) => (up ? pos.phutballRow(point) >= 19 : pos.phutballRow(point) <= 1);
    if (s.prefix.length === 0) {
      if (s.targets.includes(p.ball) && refusedJumpAt !== s.ply) return clickTarget(page, p.ball);
      const column = p.ball[0];
      for (let row = pos.phutballRow(p.ball) + (up ? 1 : -1); row >= 1 && row <= 19; row += up ? 1 : -1) {
        const point = `${column}${row}`;
        if (p.men.includes(point)) continue;
        if (s.targets.includes(point)) return clickTarget(page, point);
        break;
      }
      return clickTarget(page, pick(random, s.targets.filter((t) => t !== p.ball)));
    }
    const at = s.prefix[s.prefix.length - 1];
    if (scored(at) && s.canPlay) return page.click('[data-action=play]');
    const best = [...s.targets].sort((a, b) => progress(b) - progress(a))[0];
    if (best && progress(best) > progress(at)) return clickTarget(page, best);
    if (s.canPlay && progress(at) > progress(p.ball)) return page.click('[data-action=play]');
    refusedJumpAt = s.ply;
    return page.click('[data-action=restart]');
  };
}

// Biloba by keyboard only: focus the board, move the cursor a few times with the arrow keys (it
// must stay on a legal target), then Enter.
// `hints`: when given, the hint shown before each input is added to it.
export function bilobaKeyboard(random, hints) {
  const keys = ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'];
  return async (s, page) => {
    if (hints) hints.push(await page.textContent('.step-hint').catch(() => null));
    if (s.canPlay) return page.click('[data-action=play]');
    await page.focus('.board svg');
    const focused = await page.evaluate(() => document.activeElement?.classList.contains('biloba-board'));
    assert(focused, 'the Biloba board takes the keyboard focus');
    const presses = Math.floor(random() * 4);
    for (let i = 0; i < presses; i++) await page.keyboard.press(pick(random, keys));
    const cursor = await page.getAttribute('.board svg', 'data-cursor');
    assert(s.targets.includes(cursor), `the cursor (${cursor}) is on a legal target (${s.targets.join(' ')})`);
    return page.keyboard.press(pick(random, ['Enter', ' ']));
  };
}

// Any legal target by mouse (the Play button when the move could stop here).
export function anyTarget(random) {
  return async (s, page) => {
    if (s.canPlay && random() < 0.5) return page.click('[data-action=play]');
    return clickTarget(page, pick(random, s.targets));
  };
}
