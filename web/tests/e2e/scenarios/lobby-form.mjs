// The lobby's new-table form generated from /api/games (issue 17 item 8): for each game it lists
// exactly the options, presets, seat counts and bots the metadata gives; a preset fills the
// form in one click; a value the schema refuses is refused in the server's own words, and a
// refusal by the server itself is shown; tables opened with non-default options (BohnDuell
// supply, Phutball handicap, Biloba with three players and a `classic` seat) start with them,
// as their `table` events say; sign-out from the lobby returns to the sign-in form, also after
// a reload. axe on the form, and its pictures at 1280 and 390 px (artifacts, user guide).
import { assert, assertEqual, guest } from '../lib/ui.mjs';
import { checkAxe } from '../lib/axe.mjs';

// Keeps every `table` event the page receives in window.__tables (run before the app).
const TABLE_EVENTS = `(() => {
  const Native = window.WebSocket;
  window.__tables = [];
  window.WebSocket = class extends Native {
    constructor(url, protocols) {
      super(url, protocols);
      this.addEventListener('message', (m) => {
        try {
          const e = JSON.parse(m.data);
          if (e.type === 'table') window.__tables.push(e);
        } catch { /* not JSON: not ours to judge here */ }
      });
    }
  };
})();`;

// The form as the page shows it for the chosen game.
function readForm(page) {
  return page.evaluate(() => {
    const form = document.querySelector('form.create');
    const q = (s) => [...form.querySelectorAll(s)];
    return {
      options: q('[data-option]').map((e) => e.dataset.option),
      about: q('.option-about').map((e) => e.textContent),
      presets: q('[data-preset].preset').map((e) => e.dataset.preset),
      players: q('[data-field=players] option').map((o) => o.value),
      seats: q('[data-field^=seat]').length,
      bots: q('[data-field=seat2] option').map((o) => o.value),
    };
  });
}

async function tableEvent(page, game, board, status) {
  const handle = await page.waitForFunction(([g, b, s]) => [...window.__tables].reverse().find(
    (e) => e.game === g && e.board === b && e.status === s), [game, board, status]);
  return handle.jsonValue();
}

// Opens the table the form describes, starts it, and returns its `table` event once playing.
async function openAndStart(page, game) {
  await page.click('[data-action=create]');
  await page.waitForSelector(`section.table[data-game=${game}]`);
  const board = Number(await page.getAttribute('section.table', 'data-board'));
  await page.click('[data-action=start]');
  await page.waitForSelector(`section.table[data-game=${game}][data-status=playing]`);
  const event = await tableEvent(page, game, board, 'playing');
  await page.click('header h1 a');
  await page.waitForSelector('form.create');
  return event;
}

export async function lobbyForm(t) {
  const { page, user } = await guest(t, { init: TABLE_EVENTS });
  const games = await page.evaluate(async () => (await fetch('/api/games')).json());
  // Every game: exactly the metadata's options (the seat count as its own field), presets, seat
  // counts and bots, with the server's help, accepted values and default under each option.
  for (const g of games) {
    await page.selectOption('[data-field=game]', g.name);
    const form = await readForm(page);
    const seatOption = g.options.find((o) => o.name === g.seat_count_option);
    const others = g.options.filter((o) => o !== seatOption);
    assertEqual(form.options, others.map((o) => o.name), `${g.name}: the options of /api/games`);
    assertEqual(form.about, others.map((o) => `${o.help}${o.help ? '. ' : ''}Accepted: ${o.accepted}; default ${o.default}.`),
      `${g.name}: each option's help, values and default`);
    assertEqual(form.presets, g.presets.map((p) => p.name), `${g.name}: the presets`);
    assertEqual(form.players, seatOption ? Array.from({ length: g.max_seats - g.min_seats + 1 },
      (_, i) => String(g.min_seats + i)) : [], `${g.name}: the seat counts`);
    assertEqual(form.seats, g.min_seats, `${g.name}: one occupant per seat`);
    const ladder = g.bots.find((b) => b.seats === g.min_seats).levels.map((l) => `cpu:${l.level}`);
    assertEqual(form.bots, ['me', 'human', 'cpu:random', ...ladder, ...g.builtin_players.map((p) => `cpu:${p}`)],
      `${g.name}: you, a free seat, random, the ladder and the game's own players`);
  }

  // A preset fills the form in one click (Phutball's Winning Ways), another takes it back.
  await page.selectOption('[data-field=game]', 'phutball');
  await page.click('[data-field=options] summary');
  await page.click('[data-preset=winningways]');
  const ways = games.find((g) => g.name === 'phutball').presets.find((p) => p.name === 'winningways').values;
  assertEqual(ways, { corner_exit: 'on', own_goal: 'illegal', repetition: 'draw_on_threefold' }, 'the preset of the metadata');
  assertEqual([await page.isChecked('[data-field=option-corner_exit]'),
    await page.inputValue('[data-field=option-own_goal]'), await page.inputValue('[data-field=option-repetition]')],
  [true, 'illegal', 'draw_on_threefold'], 'Winning Ways fills the form');
  assertEqual(await page.getAttribute('[data-preset=winningways]', 'aria-pressed'), 'true', 'the preset is shown chosen');
  await page.click('[data-preset=pbmserv]');
  assertEqual([await page.isChecked('[data-field=option-corner_exit]'),
    await page.inputValue('[data-field=option-own_goal]')], [false, 'lose'], 'pbmserv: the defaults again');

  // A value out of range is refused at its field in the server's words, and nothing is sent.
  const server = await t.probe.ask('/open bohnduell supply=999');
  assertEqual(server.message, "bad value '999' for option supply: expected an integer 1..63", 'the server refuses 999');
  await page.selectOption('[data-field=game]', 'bohnduell');
  await page.click('[data-field=options] summary');
  await page.fill('[data-field=option-supply]', '999');
  assertEqual(await page.textContent('[data-error=supply]'), server.message, 'the form says what the server says');
  await page.click('[data-action=create]');
  assertEqual(await page.textContent('form.create [data-refusal]'), server.message, 'creating is refused with it');
  assert(await page.isVisible('form.create'), 'no table was opened');
  await checkAxe(page, 'the new-table form with a refused value');
  await shoot(t, page, 'lobby-form-refused', 1280);

  // Tables with non-default options start with them. BohnDuell: a supply of 12, level 1.
  await page.fill('[data-field=option-supply]', '12');
  assertEqual(await page.$('[data-error=supply]'), null, 'a valid value is no longer marked');
  await page.selectOption('[data-field=seat2]', 'cpu:1');
  const bohn = await openAndStart(page, 'bohnduell');
  assertEqual([bohn.options, bohn.seats.map((s) => `${s.kind} ${s.name}`)],
    ['supply=12', [`user ${user}`, 'cpu 1']], 'BohnDuell started with a supply of 12');
  // Phutball: a handicap of 2 (a number field), the computer first, me second.
  await page.selectOption('[data-field=game]', 'phutball');
  await page.click('[data-field=options] summary');
  await page.fill('[data-field=option-handicap]', '2');
  await page.selectOption('[data-field=seat2]', 'me');
  assertEqual(await page.inputValue('[data-field=seat1]'), 'human', 'one seat is mine: the first is freed');
  await page.selectOption('[data-field=seat1]', 'cpu:random');
  const phut = await openAndStart(page, 'phutball');
  assertEqual([phut.options, phut.seats.map((s) => `${s.kind} ${s.name}`)],
    ['handicap=2', ['cpu random', `user ${user}`]], 'Phutball started with a handicap of 2');
  // Biloba: three players, Blue the classic computer, Red level 1; the seats named by colour.
  await page.selectOption('[data-field=game]', 'biloba');
  await page.selectOption('[data-field=players]', '3');
  assertEqual(await page.$$eval('form.create .seats label', (l) => l.map((e) => e.firstChild.textContent.trim())),
    ['Seat 1, Orange', 'Seat 2, Blue', 'Seat 3, Red'], 'seats named by colour');
  await page.selectOption('[data-field=seat2]', 'cpu:classic');
  await page.selectOption('[data-field=seat3]', 'cpu:1');
  await shoot(t, page, 'lobby-form', 1280);
  await shoot(t, page, 'lobby-form', 390);
  const bil = await openAndStart(page, 'biloba');
  assertEqual([bil.options, bil.seats.map((s) => `${s.label} ${s.kind} ${s.name}`)],
    ['players=3', [`O user ${user}`, 'B cpu classic', 'R cpu 1']], 'Biloba started with three players and classic');

  // A fourth table: the form is fine, the server refuses (a guest's limit); its words are shown.
  await page.click('[data-action=create]');
  await page.waitForSelector('form.create [data-refusal]');
  assertEqual(await page.textContent('form.create [data-refusal]'),
    'you have 3 open tables (set-up or playing), the most a guest may have', 'the server\'s refusal is shown');
  t.log(`lobby form: ${games.length} games as /api/games says; tables ${bohn.board}, ${phut.board}, ${bil.board} started with ${[bohn, phut, bil].map((e) => e.options).join(', ')}`);
}

// A picture of the lobby's form at `width` px into the artifacts (guide-NAME-WIDTH.jpg, as the
// guide scenario names its pictures; docs/guide/ holds a copy).
async function shoot(t, page, name, width) {
  const before = page.viewportSize();
  await page.setViewportSize({ width, height: 900 });
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
  assert(scroll <= width, `the form fits ${width} px (${scroll})`);
  await page.locator('form.create').screenshot({ path: t.artifacts.path(`guide-${name}-${width}.jpg`),
    type: 'jpeg', quality: 70, animations: 'disabled' });
  await page.setViewportSize(before);
}

export async function lobbySignOut(t) {
  const { page } = await guest(t);
  await page.click('[data-action=lobby-sign-out]');
  await page.waitForSelector('section.login');
  assertEqual(await page.evaluate(() => localStorage.getItem('plateau.resumeToken')), null, 'the token is gone');
  await page.reload();
  await page.waitForSelector('section.login');
  assertEqual(await page.$('[data-action=create]'), null, 'still signed out after a reload');
  t.log('lobby sign-out: the sign-in form, also after a reload');
}
