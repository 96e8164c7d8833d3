// Issue 15 item 4, issue 17 item 3: "your turn" where the player is not looking. A guest in the
// lobby sees their running game (a challenge from another player, the probe) under "Your
// games"; when the other moves, it becomes their turn: the game goes first, the tab title
// counts it, a chime sounds and, once allowed on the settings page, a browser notification
// (the Notifications API, stubbed in the page to record what would be shown) says so. The
// chime can be muted, and moves wait for "Play" when the player asked to confirm them.
// Then the settings of an account: the mail setting is the server's (`notify`), the ratings
// after a rated game, and sign out.
import { assert, assertEqual, guest, probe } from '../lib/ui.mjs';
import { checkAxe } from '../lib/axe.mjs';

// The browser's Notification, recording instead of showing; permission 'default' until the
// page asks (as a real browser would after the player's click).
const FAKE_NOTIFICATION = `
  window.__notes = [];
  class FakeNotification {
    constructor(title, options) { window.__notes.push({ title, body: options?.body ?? '' }); }
    close() {}
    static permission = 'default';
    static requestPermission() { FakeNotification.permission = 'granted'; return Promise.resolve('granted'); }
  }
  window.Notification = FakeNotification;
  // Headless Chromium never hides a tab: the test says when this one is in the background.
  Object.defineProperty(document, 'visibilityState', { get: () => (window.__hidden ? 'hidden' : 'visible') });
`;

const readAlerts = (page) => page.evaluate(() => ({
  title: document.title,
  chimes: Number(document.body.dataset.chimes ?? 0),
  notes: window.__notes,
}));

export async function yourTurn(t) {
  const a = await guest(t, { init: FAKE_NOTIFICATION });
  const other = await probe(t.browser, t.server.base);
  try {
    const made = await other.ask(`phutball challenge ${other.user} ${a.user}`);
    assertEqual(made.type, 'challenge', 'the challenge is made');
    const key = `phutball/${made.board}`;
    const entry = `.your-games li[data-your-game="${key}"]`;
    await a.page.waitForSelector(`${entry}[data-turn=theirs]`, { timeout: 15000 });
    assertEqual(await a.page.textContent(`${entry} .whose`), `Waiting for ${other.user}.`, 'whose turn');
    assertEqual((await readAlerts(a.page)).title, 'Plateau', 'no count while the other is to move');

    await other.ask(`phutball move ${made.board} H11`);
    await a.page.waitForSelector(`${entry}[data-turn=mine]`, { timeout: 15000 });
    await a.page.waitForFunction(() => document.title === '(1) Plateau');
    assertEqual(await readAlerts(a.page), { title: '(1) Plateau', chimes: 1, notes: [] },
      'a chime, and no notification before the player allows them');
    assertEqual(await a.page.textContent('header .turns'), 'Your turn: 1', 'the count in the header');

    // Settings: notifications allowed, the chime muted, moves confirmed.
    await a.page.click('[data-action=settings]');
    await a.page.click('[data-action=allow-notifications]');
    await a.page.waitForSelector('[data-permission=granted]');
    await a.page.check('[data-field=mute]');
    await a.page.check('[data-field=confirm-moves]');
    await t.artifacts.page(a.page, 'settings-guest');
    // Our move, confirmed with the Play button.
    await a.page.click('header .turns');
    await a.page.click(`${entry} a`);
    await a.page.waitForSelector('section.table[data-turn=mine]');
    await a.page.click('.board .clickable[data-point=H12]');
    await a.page.waitForSelector('[data-action=play]:not([disabled])');
    assertEqual(await a.page.getAttribute('section.table', 'data-ply'), '1', 'not played before Play');
    await a.page.click('[data-action=play]');
    await a.page.waitForSelector('section.table[data-ply="2"]');
    await a.page.waitForFunction(() => document.title === 'Plateau');
    // Back in the lobby, the other moves: a notification, no chime (muted).
    await a.page.click('header h1 a');
    await a.page.waitForSelector(`${entry}[data-turn=theirs]`);
    await other.ask(`phutball move ${made.board} H13`);
    await a.page.waitForFunction(() => document.title === '(1) Plateau', null, { timeout: 15000 });
    const alerts = await readAlerts(a.page);
    assertEqual(alerts.notes, [{ title: 'Your turn',
      body: `It is your move in Philosopher's Football ${made.board}.` }], 'the notification');
    assertEqual(alerts.chimes, 1, 'no chime once muted');
    await t.artifacts.page(a.page, 'your-games-lobby');

    // At the table itself nothing is announced while the tab is shown; in the background it is.
    const play = async (point, ply) => {
      await a.page.click(`.board .clickable[data-point=${point}]`);
      await a.page.click('[data-action=play]');
      await a.page.waitForSelector(`section.table[data-ply="${ply}"]`);
    };
    await a.page.click(`${entry} a`);
    await play('J12', 4);
    await other.ask(`phutball move ${made.board} H15`);
    await a.page.waitForSelector('section.table[data-turn=mine][data-ply="5"]');
    await a.page.waitForFunction(() => document.title === '(1) Plateau');
    await a.page.waitForTimeout(300);
    assertEqual((await readAlerts(a.page)).notes.length, 1, 'no notification for the game on screen');
    await play('J13', 6);
    await a.page.evaluate(() => {
      window.__hidden = true;
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await other.ask(`phutball move ${made.board} H16`);
    await a.page.waitForFunction(() => window.__notes.length === 2, null, { timeout: 15000 });
    assertEqual((await readAlerts(a.page)).title, '(1) Plateau', 'the background tab\'s title');
  } finally {
    await other.close();
  }
}

// An account's mail setting is kept by the server: chosen here, it is read back after a
// reload; a guest is told that guests get no mail. Signing out forgets the resume token.
export async function settingsPage(t) {
  const g = await guest(t);
  await g.page.click('[data-action=settings]');
  assertEqual(await g.page.textContent('section.settings fieldset p'),
    'Guests get no mail: create an account to be told by mail.', 'a guest has no mail setting');

  const context = await t.browser.newContext({ viewport: { width: 1100, height: 1000 } });
  t.contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (e) => t.errors.push(`page error: ${e.message}`));
  const name = `set${Date.now() % 100000}`;
  await page.goto(`${t.server.base}/`);
  await page.waitForSelector('section.login .landing-rules a');
  await checkAxe(page, 'the sign-in page');
  // The rules are one click from the landing page, before signing in.
  await page.click('section.login .landing-rules a[href="#/rules/phutball"]');
  await page.waitForSelector('section.rules[data-rules-page="1"] .diagram svg');
  await page.keyboard.press('Escape');
  await page.waitForSelector('section.login');
  await page.fill('section.login input[autocomplete=username]', name);
  await page.fill('section.login input[type=password]', 'pw-settings-secret');
  await page.click('section.login button[type=button]');
  await page.waitForSelector('[data-action=create]');
  await page.click('[data-action=settings]');
  await page.waitForSelector('.server-answer[data-notify=every]');
  await page.click('[data-field=notify-digest]');
  await page.waitForFunction(() => document.querySelector('.server-answer')?.textContent ===
    'notify digest: one mail a day lists the boards waiting for your move.');
  await page.reload();
  await page.waitForSelector('.server-answer[data-notify=digest]');
  assert(await page.isChecked('[data-field=notify-digest]'), 'digest is checked after a reload');
  // The language from the settings page.
  await page.selectOption('[data-field=language]', 'fr');
  await page.waitForSelector('section.settings h2:has-text("Réglages")');
  await page.selectOption('[data-field=language]', 'en');
  // A rated game between two accounts (BohnDuell, supply 3: A S2, B S3, B S4; B wins), then
  // the ratings page shows the server's standings exactly, the winner first.
  const other = await probe(t.browser, t.server.base);
  t.contexts.push({ pages: () => [], close: () => other.close() });
  const rival = `riv${Date.now() % 100000}`;
  assertEqual((await other.ask(`register ${rival} pw-rival-secret`)).type, 'login', 'the rival registered');
  const made = await other.ask(`bohnduell challenge -supply=3 ${name} ${rival}`);
  await page.goto(`${t.server.base}/#/table/bohnduell/${made.board}`);
  await page.click('section.table[data-turn=mine] .board [data-step=S2]');
  await page.waitForSelector('section.table[data-ply="1"]');
  for (const [move, ply] of [['S3', 2], ['S4', 3]]) await other.ask(`bohnduell move ${made.board} ${move}#${ply}`);
  await page.waitForSelector('.result-banner');
  await page.click('[data-action=ratings]');
  await page.selectOption('[data-field=ratings-game]', 'bohnduell');
  await page.waitForSelector('.ratings table[data-game=bohnduell] tbody tr');
  const standings = await other.ask('standings bohnduell');
  const shown = await page.$$eval('.ratings tbody tr', (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent)));
  assertEqual(shown, standings.items.map((r, i) => [String(i + 1), r.player, String(r.rating), `±${r.deviation}`, String(r.games)]),
    'the ratings page is the server\'s standings');
  assertEqual(shown.map((r) => r[1]), [rival, name], 'the winner first');
  await checkAxe(page, 'the ratings');
  // Sign out: the sign-in form, also after a reload (the token is gone).
  await page.click('[data-action=settings]');
  await page.click('[data-action=sign-out]');
  await page.waitForSelector('section.login');
  assertEqual(await page.evaluate(() => localStorage.getItem('plateau.resumeToken')), null,
    'no token kept after signing out');
  await page.reload();
  await page.waitForSelector('section.login');
  t.log(`settings: ${name} chose digest, signed out`);
}
