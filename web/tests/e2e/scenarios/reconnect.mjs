// Issue 13, items 5 and 7 in the browser: the WebSocket drops mid-game and comes back.
//  - reconnect: two guests play Phutball (Fischer clocks); A's connection drops while B is to
//    move; B moves and chats meanwhile; A reconnects (resume, resync from its last seq): A's move
//    list is the server's record exactly (no gap, no duplicate, every seat labelled), A's chat
//    is B's, the clocks agree, and the game goes on live.
//  - lost-ack: against a CPU, A's connection drops right after a move went out (its answer is
//    lost); after the reconnection the page sends the same move again with the same #n, the
//    server answers with the original acknowledgement and the record holds the move once.
import { assert, assertEqual, guest, inputAndWait, openTable, readTable, rng } from '../lib/ui.mjs';
import * as pos from '../lib/positions.mjs';
import * as strategies from './strategies.mjs';
import { NETWORK_HOOK, dropAfter, forgetOfflineErrors, goOffline, goOnline, sentCommands } from '../lib/network.mjs';

const moveList = (page) => page.$$eval('section.table .move-list li[data-ply]', (l) => l.map((x) => x.textContent));
const chatLines = (page) => page.$$eval('section.table .chat li', (l) => l.map((x) => x.textContent));

// Inputs on `page` until its ply has moved past `ply` (one whole move of ours).
async function playOne(page, strategy) {
  const start = await readTable(page);
  assert(start.turn === 'mine', 'our turn');
  for (let inputs = 0; inputs < 60; inputs++) {
    const s = await readTable(page);
    if (s.ply > start.ply) return s.ply;
    if (s.turn !== 'mine' || s.busy || s.targets.length === 0) {
      await page.waitForTimeout(40);
      continue;
    }
    await inputAndWait(page, strategy, s);
  }
  throw new Error('no move made in 60 inputs');
}

// The record's moves as the move list shows them: "LABEL: MOVE"; a numbered record's plies
// alternate between the game's seat labels (by game seat, from /api/games).
async function recordList(t, board) {
  const games = await (await fetch(`${t.server.base}/api/games`)).json();
  const labels = games.find((g) => g.name === 'phutball').seats.find((s) => s.count === 2).labels;
  const moves = pos.recordMoves(await t.server.record('phutball', board));
  return moves.map((m, i) => `${m.seat || labels[i % labels.length]}: ${m.move}`);
}

const waitPly = (page, ply) => page.waitForSelector(`section.table[data-ply="${ply}"]`, { timeout: 20000 });

export async function reconnect(t) {
  const a = await guest(t, { init: NETWORK_HOOK });
  const b = await guest(t);
  const board = await openTable(a.page, { game: 'phutball', seats: ['human'], clock: 'fischer:300+5' });
  await b.page.goto(`${t.server.base}/#/table/phutball/${board}`);
  await b.page.click('[data-action=join2]');
  await a.page.waitForSelector(`section.table li[data-seat="2"]:has-text("${b.user}")`);
  await a.page.click('[data-action=start]');
  for (const p of [a, b]) await p.page.waitForSelector('section.table[data-status=playing] .board');
  const players = { [a.user]: { p: a, s: strategies.phutball(rng(11)) }, [b.user]: { p: b, s: strategies.phutball(rng(12)) } };
  // Four plies, then B to move.
  let ply = 0;
  for (;;) {
    await Promise.race([a, b].map((p) => p.page.waitForSelector('section.table[data-turn=mine]')));
    const mover = (await a.page.getAttribute('section.table', 'data-turn')) === 'mine' ? a : b;
    if (ply >= 4 && mover === b) break;
    ply = await playOne(mover.page, players[mover.user].s);
    await waitPly(mover === a ? b.page : a.page, ply);
  }
  await b.page.fill('[data-field=chat]', 'before the drop');
  await b.page.press('[data-field=chat]', 'Enter');
  await a.page.waitForSelector('.chat li:has-text("before the drop")');

  // A drops; B moves and talks meanwhile.
  await goOffline(a.page);
  await a.page.waitForSelector('.reconnecting:has-text("Connection lost: reconnecting…")');
  ply = await playOne(b.page, players[b.user].s);
  for (const line of ['while you were away', 'and a second line']) {
    await b.page.fill('[data-field=chat]', line);
    await b.page.press('[data-field=chat]', 'Enter');
    await b.page.waitForSelector(`.chat li:has-text("${line}")`);
  }
  assertEqual(await readTable(a.page).then((s) => s.ply), ply - 1, 'A heard nothing while offline');

  // A comes back: the missed move and chat, once each.
  const sentBefore = (await sentCommands(a.page)).length;
  await goOnline(a.page);
  await waitPly(a.page, ply);
  await a.page.waitForSelector('.reconnecting', { state: 'detached' });
  await a.page.waitForFunction((n) => document.querySelectorAll('.chat li').length >= n, 3);
  await a.page.waitForTimeout(500); // anything duplicated would show by now
  // Caught up by a resync from its last seq, not by loading the table again.
  const caughtUp = (await sentCommands(a.page)).slice(sentBefore);
  assert(/^resume \S+$/.test(caughtUp[0]), `resumed first (${caughtUp})`);
  assert(caughtUp.some((c) => new RegExp(`^resync phutball ${board} \\d{1,8}$`).test(c)) &&
    !caughtUp.includes('/watch'), `a resync from the last seq, no /watch (${caughtUp})`);
  const expected = await recordList(t, board);
  assertEqual(expected.length, ply, 'the record has every ply');
  assertEqual(await moveList(a.page), expected, 'A\'s move list after the reconnection is the record');
  assertEqual(await moveList(b.page), expected, 'B\'s move list is the record');
  assertEqual(await chatLines(a.page), await chatLines(b.page), 'A\'s chat is B\'s, no line twice');
  assertEqual((await readTable(a.page)).position, (await readTable(b.page)).position, 'the same board');
  // The clocks: the current ones, not those of the replayed events.
  const clocks = (page) => page.$$eval('.clocks .clock', (cs) => cs.map((c) => Number(c.dataset.leftMs)));
  await a.page.waitForTimeout(300);
  const [ca, cb] = [await clocks(a.page), await clocks(b.page)];
  assert(ca.length === 2 && ca.every((ms, i) => Math.abs(ms - cb[i]) < 2000),
    `A's clocks agree with B's (${ca} vs ${cb})`);

  // Live again: A moves, B sees it; the lists stay the record.
  ply = await playOne(a.page, players[a.user].s);
  await waitPly(b.page, ply);
  const after = await recordList(t, board);
  assertEqual(await moveList(a.page), after, 'A\'s move list after a move of its own');
  assertEqual(await moveList(b.page), after, 'B\'s move list after A\'s move');
  await t.artifacts.page(a.page, 'reconnect-a');
  forgetOfflineErrors(t);
  t.log(`reconnect: phutball ${board}, A offline for ply ${ply - 1} and two chat lines, ${ply} plies`);
}

export async function lostAck(t) {
  const a = await guest(t, { init: NETWORK_HOOK });
  const board = await openTable(a.page, { game: 'phutball', seats: ['cpu:random'] });
  await a.page.click('[data-action=start]');
  await a.page.waitForSelector('section.table[data-status=playing] .board');
  const strategy = strategies.phutball(rng(21));
  // Play to our turn after at least two plies.
  for (;;) {
    await a.page.waitForSelector('section.table[data-turn=mine][data-busy=false]');
    const s = await readTable(a.page);
    if (s.ply >= 2) break;
    await playOne(a.page, strategy);
  }
  const before = await readTable(a.page);
  const n = before.ply + 1;
  // The connection drops right after the move went out: its answer is lost.
  await dropAfter(a.page, ` move ${board} `);
  const input = playOne(a.page, strategy).catch((e) => e);
  await a.page.waitForFunction(() => window.__net.drops === 1, null, { timeout: 30000 });
  await a.page.waitForSelector('header .offline');
  // The server got it (and the CPU answered): the record has it before the page knows.
  let stored = [];
  for (let i = 0; i < 150 && stored.length <= before.ply; i++) {
    stored = pos.recordMoves(await t.server.record('phutball', board));
    if (stored.length <= before.ply) await a.page.waitForTimeout(100);
  }
  assert(stored.length > before.ply, `the first copy reached the server (${stored.length} plies stored)`);
  assertEqual(Number(await a.page.getAttribute('section.table', 'data-ply')), before.ply,
    'the page has no answer yet');
  await goOnline(a.page);
  const reached = await input;
  assert(typeof reached === 'number', `the move is acknowledged after the reconnection (${reached})`);
  await a.page.waitForSelector('section.table[data-turn=mine][data-busy=false]');
  // Sent twice with the same #n, stored once.
  const copies = (await sentCommands(a.page)).filter((c) => new RegExp(`^phutball move ${board} \\S+#${n}$`).test(c));
  assertEqual(copies.length, 2, `the move went out twice (${copies})`);
  assertEqual(copies[0], copies[1], 'the same move, the same #n');
  const record = pos.recordMoves(await t.server.record('phutball', board));
  const shown = await t.probe.ask(`phutball show ${board}`);
  assertEqual(record.length, shown.ply, 'the record has one entry per ply');
  assertEqual(record[n - 1].move, copies[0].split(' ')[3].replace(/#\d+$/, ''), 'ply n is the move');
  assertEqual(await moveList(a.page), await recordList(t, board), 'the move list is the record');
  // And the game goes on.
  const next = await playOne(a.page, strategy);
  assert(next > shown.ply, 'a move after the reconnection');
  forgetOfflineErrors(t);
  t.log(`lost-ack: phutball ${board}, ply ${n} sent twice, stored once`);
}
