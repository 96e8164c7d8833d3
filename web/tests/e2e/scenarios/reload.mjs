// Issue 13, item 6: a page reloaded mid-game comes back as the same user, still seated, with
// the resume token it kept in localStorage: a guest, and an account. The token is 43 characters
// of base64url; the header shows the same name; the table is playing and it is still our turn
// with the same moves.
import { assert, assertEqual, guest, inputAndWait, openTable, readTable } from '../lib/ui.mjs';
import * as strategies from './strategies.mjs';
import { rng } from '../lib/ui.mjs';

const TOKEN_KEY = 'plateau.resumeToken';

// Plays our seat until at least `ply` plies are on the board and it is our turn again.
async function playUntil(page, strategy, ply) {
  for (let inputs = 0; inputs < 200; inputs++) {
    const s = await readTable(page);
    if (s.ply >= ply && s.turn === 'mine' && !s.busy) return s;
    if (s.turn !== 'mine' || s.busy || s.targets.length === 0) {
      await page.waitForTimeout(40);
      continue;
    }
    await inputAndWait(page, strategy, s);
  }
  throw new Error(`ply ${ply} not reached`);
}

// Starts a Phutball game against a CPU on `page` (in the lobby, logged in as `user`), plays a
// move each, reloads and checks that the page is still `user`, seated at the same game.
async function reloadMidGame(t, page, user, name) {
  const board = await openTable(page, { game: 'phutball', seats: ['cpu:random'] });
  await page.click('[data-action=start]');
  await page.waitForSelector('section.table[data-status=playing] .board');
  const before = await playUntil(page, strategies.phutball(rng(7)), 2);
  before.moves = await page.$$eval('.move-list li[data-ply]', (l) => l.map((x) => x.textContent));
  assert(before.moves.length === before.ply && before.moves.every((m) => /^\S+: \S+$/.test(m)),
    `a labelled move list before the reload (${before.moves})`);
  const token = await page.evaluate((k) => localStorage.getItem(k), TOKEN_KEY);
  assert(/^[A-Za-z0-9_-]{43}$/.test(token ?? ''), `a resume token is kept (${token})`);
  await page.reload();
  await page.waitForSelector(`section.table[data-board="${board}"][data-status=playing] .board`);
  assertEqual((await page.textContent('header .online')).trim(), user, 'the same user after the reload');
  await page.waitForSelector('section.table[data-turn=mine]');
  const after = await readTable(page);
  assertEqual(after.ply, before.ply, 'the same ply after the reload');
  assertEqual(after.position, before.position, 'the same position after the reload');
  assertEqual(await page.evaluate((k) => localStorage.getItem(k), TOKEN_KEY), token,
    'the same token after the reload');
  // The moves so far (from the record, which names no seats in Phutball) with their seat
  // labels, as before the reload: "A: H11", not ": H11".
  await page.waitForFunction((n) => document.querySelectorAll('.move-list li[data-ply]').length === n, after.ply);
  const listed = await page.$$eval('.move-list li[data-ply]', (l) => l.map((x) => x.textContent));
  assertEqual(listed, before.moves, 'the same move list, seats labelled, after the reload');
  // Still seated: our move is accepted.
  await playUntil(page, strategies.phutball(rng(8)), before.ply + 2);
  await t.artifacts.page(page, `${name}-after-reload`);
  // The same tables: the game is among "your games" in the lobby.
  await page.click('header h1 a');
  await page.waitForSelector(`.your-games li[data-your-game="phutball/${board}"]`);
  t.log(`${name}: ${user} at phutball ${board}, reloaded at ply ${before.ply}`);
}

export async function reload(t) {
  const g = await guest(t);
  await reloadMidGame(t, g.page, g.user, 'reload-guest');

  // An account, registered from the sign-in form.
  const context = await t.browser.newContext({ viewport: { width: 1100, height: 1000 } });
  t.contexts.push(context);
  context.setDefaultTimeout(30000);
  const page = await context.newPage();
  page.on('pageerror', (e) => t.errors.push(`page error: ${e.message}`));
  await page.goto(`${t.server.base}/`);
  const name = `reload${Date.now() % 100000}`;
  await page.fill('section.login input[autocomplete=username]', name);
  await page.fill('section.login input[type=password]', 'pw-reload-secret');
  await page.click('section.login button[type=button]');
  await page.waitForSelector('[data-action=create]');
  assertEqual((await page.textContent('header .online')).trim(), name, 'registered');
  await reloadMidGame(t, page, name, 'reload-account');
}
