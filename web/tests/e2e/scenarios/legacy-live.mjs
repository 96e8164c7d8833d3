// A biloba 0.9.3 network game on the server's legacy port, watched live from the browser (issue
// 13, item 8): the game is a lobby table from its start, the lobby offers to watch it, and the
// board follows the turns as the two `biloba` clients play them (their bots click slowly), up to
// the end, where it shows the clients' final board and every turn of the record.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PlateauServer } from '../lib/server.mjs';
import * as pos from '../lib/positions.mjs';
import { assert, assertEqual, checkBoard, guest } from '../lib/ui.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const DELAY_MS = 150; // before each click of the clients' bots: the game lasts long enough to watch

// A `biloba` client whose seat bot `level` plays; resolves to its output once it exits with 0.
function player(biloba, port, dir, name, level, args) {
  const out = join(dir, `${name}.out`);
  const proc = spawn(biloba, ['127.0.0.1', '--port', String(port), '--cpu', '--level', level,
    '--cpu-delay', String(DELAY_MS), '-q', '--name', name, ...args],
  { stdio: ['ignore', openSync(out, 'w'), openSync(out, 'a')] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => proc.kill('SIGKILL'), 180000);
    proc.once('exit', (code, signal) => {
      clearTimeout(timer);
      const text = readFileSync(out, 'utf8');
      if (code === 0) resolve(text);
      else reject(new Error(`biloba ${name} exited with ${code ?? signal}:\n${text}`));
    });
  });
}

async function bilobaTable(server, status) {
  for (let i = 0; i < 300; i++) {
    const tables = await (await fetch(`${server.base}/api/tables`)).json();
    const table = tables.find((tb) => tb.game === 'biloba' && tb.status === status);
    if (table) return table;
    await sleep(100);
  }
  throw new Error(`no ${status} biloba table in /api/tables`);
}

export async function legacyLive(t) {
  const biloba = join(dirname(t.server.binary), 'biloba');
  const server = await new PlateauServer(t.server.binary, t.server.webDir, { biloba: true }).start();
  const dir = mkdtempSync(join(tmpdir(), 'plateau-legacy-live-'));
  const players = [];
  try {
    const port = server.bilobaPort;
    players.push(player(biloba, port, dir, 'Ann', 'greedy', ['--create', 'live game', '--seed', '1']));
    for (let i = 0; ; i++) {
      const list = spawnSync(biloba, ['127.0.0.1', '--port', String(port), '--list'], { encoding: 'utf8', timeout: 20000 });
      if (list.stdout?.includes('live game')) break;
      assert(i < 300, 'the game was listed for joining');
      await sleep(100);
    }
    players.push(player(biloba, port, dir, 'Bob', 'random', ['--join', '1', '--seed', '2']));
    // Catch a failing client at once (and leave no unhandled rejection behind).
    const ended = Promise.all(players);
    ended.catch(() => {});

    // The game is a table while it is played: the lobby offers to watch it.
    const playing = await bilobaTable(server, 'playing');
    const { page } = await guest({ ...t, server });
    const link = `section.lobby a.action[href="#/table/biloba/${playing.board}"]`;
    await page.waitForSelector(link);
    const row = await page.$eval(link, (a) => a.closest('li, tr')?.textContent ?? '');
    assert(row.includes('Ann') && row.includes('Bob'), `the lobby row names the players (${row})`);
    await page.click(link);
    await page.waitForSelector(`section.table[data-game=biloba][data-board="${playing.board}"] .board`);

    // The board follows the turns as they are played.
    const plies = [];
    let last = Number(await page.getAttribute('section.table', 'data-ply'));
    while (plies.length < 3) {
      await page.waitForFunction((previous) => {
        const table = document.querySelector('section.table');
        return table && Number(table.dataset.ply) > previous;
      }, last, { timeout: 60000 });
      const state = await page.evaluate(() => {
        const table = document.querySelector('section.table');
        return { ply: Number(table.dataset.ply), status: table.dataset.status };
      });
      if (state.status !== 'playing') break;
      last = state.ply;
      plies.push(last);
      await checkBoard(page, 'biloba');
      assertEqual(await page.$$('[data-action=play]:not([disabled])').then((l) => l.length), 0,
        'a spectator cannot play a legacy seat');
    }
    assert(plies.length >= 3, `the board moved live while the game was played (plies ${plies})`);
    await t.artifacts.board(page, 'biloba-legacy-live');

    const [ann, bob] = await ended;
    const final = ann.match(/^Position: (.*)$/m)?.[1];
    assert(final, `the client printed its final position:\n${ann}`);
    assertEqual(bob.match(/^Position: (.*)$/m)?.[1], final, 'both clients end on the same board');
    await page.waitForSelector('section.table[data-status=over]', { timeout: 30000 });
    assertEqual(await checkBoard(page, 'biloba'), final, 'the watched board ends on the clients\' final board');
    const over = await bilobaTable(server, 'over');
    const moves = pos.recordMoves(await server.record('biloba', over.board));
    assertEqual(Number(await page.getAttribute('section.table', 'data-ply')), moves.length,
      'the watcher saw every turn');
    t.log(`biloba 0.9.3 game watched live as board ${over.board}: plies ${plies.join(', ')} of ${moves.length}`);
  } finally {
    const code = await server.stop();
    server.cleanup();
    rmSync(dir, { recursive: true, force: true });
    assertEqual(code, 0, 'the second server stopped cleanly');
  }
}
