// One guest challenges another by name (`GAME challenge USER1 USER2`): the challenged browser
// shows a notice with a button to the new board, already playing; the board is in the lobby list.
import { assert, assertEqual, guest } from '../lib/ui.mjs';

export async function challenge(t) {
  const a = await guest(t);
  const b = await guest(t);
  await a.page.selectOption('[data-field=challenge-game]', 'bohnduell');
  await a.page.fill('[data-field=challenge-user]', b.user);
  await a.page.uncheck('[data-field=challenge-first]'); // b is seat 1 and moves first
  await a.page.click('[data-action=challenge]');
  await a.page.waitForSelector('section.table[data-status=playing] .board');
  const board = Number(await a.page.getAttribute('section.table', 'data-board'));
  assert(board >= 101, `a board number (${board})`);
  // The challenged player is told, wherever they are, and goes to the table.
  const notice = b.page.locator(`.challenges [data-challenge="bohnduell/${board}"]`);
  await notice.waitFor({ timeout: 10000 });
  assert((await notice.textContent()).includes(`board ${board}: ${b.user} – ${a.user}.`),
    `the notice names the players in seat order (${await notice.textContent()})`);
  assertEqual(await a.page.$$eval('.challenges li', (l) => l.length), 0, 'no notice for the challenger');
  await t.artifacts.page(b.page, 'challenge-notice');
  await notice.locator('[data-action=open-challenge]').click();
  await b.page.waitForSelector(`section.table[data-board="${board}"][data-status=playing] .board`);
  await b.page.waitForSelector('section.table[data-turn=mine]');
  assertEqual(await b.page.$$eval('.challenges li', (l) => l.length), 0, 'the notice is gone');
  // The new board is in the lobby list.
  await a.page.click('header h1 a');
  const listed = a.page.locator(`.lobby .tables li[data-table="bohnduell/${board}"]`);
  await listed.waitFor({ timeout: 10000 });
  assert((await listed.textContent()).includes(`playing — ${b.user} · ${a.user}`),
    `the board listed (${await listed.textContent()})`);
  await t.artifacts.page(a.page, 'challenge-lobby');
  t.log(`challenge: bohnduell ${board}, ${b.user} – ${a.user}`);
}
