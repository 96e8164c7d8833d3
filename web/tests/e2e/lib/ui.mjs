// Page helpers for the browser tests: sign in, open tables, read the table's state from the
// DOM, play a game to its end with a move-choosing strategy, check what the board draws.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import * as pos from './positions.mjs';

export function assert(condition, message) {
  if (!condition) throw new Error(`assertion failed: ${message}`);
}

export function assertEqual(actual, expected, message) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`assertion failed: ${message}\n  expected ${e}\n  actual   ${a}`);
}

// A small seeded generator (mulberry32), so that every run plays the same choices.
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = (random, list) => list[Math.floor(random() * list.length)];

export class Artifacts {
  constructor(dir) {
    this.dir = dir;
    mkdirSync(dir, { recursive: true });
    this.files = [];
  }

  path(name) {
    const file = join(this.dir, name);
    this.files.push(file);
    return file;
  }

  async board(page, name) {
    const board = page.locator('.board').first();
    await board.screenshot({ path: this.path(`${name}.png`), animations: 'disabled' });
  }

  async page(page, name) {
    await page.screenshot({ path: this.path(`${name}.png`), fullPage: true, animations: 'disabled' });
  }
}

// A new browser context signed in as a guest on the lobby. Returns { context, page, user }.
// The runner closes it after the scenario (t.contexts), once any failure has been pictured.
export async function guest(t, options = {}) {
  const { browser, errors } = t;
  const base = t.server.base;
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1100, height: 1000 },
    reducedMotion: options.reducedMotion ?? 'no-preference',
  });
  t.contexts.push(context);
  context.setDefaultTimeout(30000);
  // options.init: a script run in the page before the app (e.g. lib/network.mjs).
  if (options.init) await context.addInitScript(options.init);
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console error: ${m.text()} (${m.location()?.url ?? ''})`);
  });
  await page.goto(`${base}/${options.query ?? ''}`);
  await page.click('[data-action=guest]');
  await page.waitForSelector('[data-action=create]');
  const user = (await page.textContent('header .online')).trim();
  assert(/^guest\d+$/.test(user), `signed in as a guest (${user})`);
  return { context, page, user };
}

// From the lobby: opens a table of `game` with `seats` (for seats 2..: 'human' or 'cpu:LEVEL'),
// goes to it and returns its board number.
export async function openTable(page, { game, players, seats = [], clock }) {
  await page.selectOption('[data-field=game]', game);
  if (players) await page.selectOption('[data-field=players]', String(players));
  if (clock) await page.selectOption('[data-field=clock]', clock);
  for (let s = 0; s < seats.length; s++) await page.selectOption(`[data-field=seat${s + 2}]`, seats[s]);
  await page.click('[data-action=create]');
  await page.waitForSelector(`section.table[data-game=${game}]`);
  const board = Number(await page.getAttribute('section.table', 'data-board'));
  assert(board >= 101, `a board number (${board})`);
  return board;
}

// What a player's page shows right now.
export function readTable(page) {
  return page.evaluate(() => {
    const table = document.querySelector('section.table');
    const dialog = document.querySelector('.result-dialog');
    const board = document.querySelector('.board');
    const targets = [...document.querySelectorAll('.board [data-step], .board .clickable')]
      .map((e) => e.dataset.step ?? e.dataset.point ?? e.dataset.square);
    return {
      over: Boolean(dialog),
      turn: table?.dataset.turn,
      busy: table?.dataset.busy === 'true',
      ply: Number(table?.dataset.ply ?? -1),
      position: board?.dataset.position,
      prefix: board?.dataset.prefix ? board.dataset.prefix.split(' ') : [],
      cursor: board?.querySelector('svg')?.dataset.cursor,
      targets,
      canPlay: Boolean(document.querySelector('[data-action=play]:not([disabled])')),
    };
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Plays until every page shows the result dialog. `players`: [{ page, strategy }] where
// strategy(state, page) performs one input (a click or key press) for the player to move.
// Returns the number of inputs made.
export async function playToEnd(players, { timeoutMs = 240000, maxInputs = 2000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let inputs = 0;
  for (;;) {
    assert(Date.now() < deadline, `the game ended within ${timeoutMs / 1000} s`);
    assert(inputs < maxInputs, `the game ended within ${maxInputs} inputs`);
    let acted = false;
    let allOver = true;
    for (const p of players) {
      const s = await readTable(p.page);
      if (!s.over) allOver = false;
      if (s.over || s.turn !== 'mine' || s.busy || s.targets.length === 0) continue;
      await inputAndWait(p.page, p.strategy, s);
      inputs++;
      acted = true;
    }
    if (allOver) return inputs;
    if (!acted) await sleep(40);
  }
}

// Makes one input of `strategy` on `page` (whose table read `s`), then waits until it took
// effect: a new prefix, a new ply or the end.
export async function inputAndWait(page, strategy, s) {
  await strategy(s, page);
  await page.waitForFunction((before) => {
    const table = document.querySelector('section.table');
    if (document.querySelector('.result-dialog')) return true;
    const board = document.querySelector('.board');
    return table.dataset.busy === 'false' &&
      (table.dataset.ply !== before.ply || (board?.dataset.prefix ?? '') !== before.prefix);
  }, { ply: String(s.ply), prefix: s.prefix.join(' ') }, { polling: 25, timeout: 30000 });
}

// Clicks the board target `name` (a step button, point or square).
export async function clickTarget(page, name) {
  const el = page.locator(`.board [data-step="${name}"], .board .clickable[data-point="${name}"], ` +
    `.board .clickable[data-square="${name}"]`).first();
  await el.click();
}

// Checks that the board as drawn is the position string it carries, and that the marked last
// move is the one given. Returns the position.
export async function checkBoard(page, game, lastMarks) {
  const drawn = await page.evaluate(() => {
    const board = document.querySelector('.board');
    const marked = [...board.querySelectorAll('.last')]
      .map((e) => e.dataset.bowl ?? e.dataset.point ?? e.dataset.square).filter(Boolean).sort();
    const bowls = Object.fromEntries([...board.querySelectorAll('[data-bowl]')]
      .map((g) => [g.dataset.bowl, Number(g.querySelector('.count').textContent)])
      .sort(([a], [b]) => a.localeCompare(b)));
    const stores = Object.fromEntries([...board.querySelectorAll('[data-store]')]
      .map((g) => [g.dataset.store, Number(g.querySelector('.count').textContent)])
      .sort(([a], [b]) => a.localeCompare(b)));
    const men = [...board.querySelectorAll('[data-point]')].filter((g) => g.querySelector('.man'))
      .map((g) => g.dataset.point).sort();
    const ball = board.querySelector('[data-ball]')?.dataset.ball;
    const pawns = Object.fromEntries([...board.querySelectorAll('[data-square]')]
      .filter((g) => g.querySelector('.pawn')).map((g) => [g.dataset.square, g.querySelector('.pawn').dataset.pawn])
      .sort(([a], [b]) => a.localeCompare(b)));
    return { position: board.dataset.position, last: board.dataset.last, marked, bowls, stores, men, ball, pawns };
  });
  if (game === 'bohnduell') {
    const p = pos.bohnduell(drawn.position);
    const bowls = {};
    const stores = { A: p.A.store, B: p.B.store };
    for (const side of ['A', 'B']) p[side].bowls.forEach((n, i) => { bowls[`${side}${i + 1}`] = n; });
    assertEqual(drawn.bowls, sortObject(bowls), 'BohnDuell bowls drawn as in the position');
    assertEqual(drawn.stores, stores, 'BohnDuell stores drawn as in the position');
  } else if (game === 'phutball') {
    const p = pos.phutball(drawn.position);
    assertEqual(drawn.men, p.men, 'Phutball men drawn as in the position');
    assertEqual(drawn.ball, p.ball, 'Phutball ball drawn as in the position');
  } else {
    assertEqual(drawn.pawns, pos.biloba(drawn.position).pawns, 'Biloba pawns drawn as in the position');
  }
  if (lastMarks) {
    assertEqual(drawn.last.split(' ').filter(Boolean).sort(), [...lastMarks].sort(), 'the last move marked');
    assertEqual(drawn.marked, [...new Set(lastMarks)].sort(), 'the last move highlighted on the board');
  }
  return drawn.position;
}

function sortObject(o) {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
}

// The squares a move marks (the same reading as web/src/boards/GAME/view.ts, written again here).
export function marksOf(game, move, seat) {
  if (game === 'bohnduell') {
    const m = /^[SH]([1-4])$/.exec(move);
    return m ? [`${seat}${m[1]}`] : [];
  }
  if (game === 'phutball') return move.toUpperCase().split('-');
  return move.toLowerCase().match(/[a-i][1-9]/g) ?? [];
}

// A WebSocket client inside a blank page of its own: asks the server directly, not through the
// app under test. ask('show bohnduell 101') -> the reply event.
export async function probe(browser, base) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${base}/healthz`);
  await page.evaluate((url) => new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    window.pending = new Map();
    window.nextId = 1;
    ws.onmessage = (m) => {
      const e = JSON.parse(m.data);
      const waiter = window.pending.get(e.re);
      if (waiter && (e.type !== 'ok' || waiter.ok)) {
        window.pending.delete(e.re);
        waiter.resolve(e);
      }
    };
    ws.onopen = () => resolve();
    ws.onerror = () => reject(new Error('probe: WebSocket failed'));
    window.ask = (cmd) => new Promise((res) => {
      const id = window.nextId++;
      window.pending.set(id, { resolve: res, ok: false });
      ws.send(JSON.stringify({ cmd, id }));
    });
  }), base.replace(/^http/, 'ws') + '/ws');
  // A connection that does not log in is closed after --login-timeout (60 s): the probe is a guest.
  const login = await page.evaluate(() => window.ask('guest'));
  return {
    user: login.user, // guestN: scenarios may seat it as a player
    ask: (cmd) => page.evaluate((c) => window.ask(c), cmd),
    close: () => context.close(),
  };
}
