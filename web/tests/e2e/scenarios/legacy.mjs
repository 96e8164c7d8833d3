// A biloba 0.9.3 network game (two `biloba` clients on the server's legacy port, their seats
// played by bots) is kept as a finished table (issue 8): the lobby offers its replay, which names
// the players and ends on the board the clients printed at the end of their game.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PlateauServer } from '../lib/server.mjs';
import * as pos from '../lib/positions.mjs';
import { assert, assertEqual, checkBoard, guest } from '../lib/ui.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A `biloba` client whose seat bot `level` plays; resolves to its output once it exits with 0.
function client(biloba, port, dir, name, level, args) {
  const out = join(dir, `${name}.out`);
  const proc = spawn(biloba, ['127.0.0.1', '--port', String(port), '--cpu', '--level', level,
    '--cpu-delay', '0', '-q', '--name', name, ...args], { stdio: ['ignore', openSync(out, 'w'), openSync(out, 'a')] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => proc.kill('SIGKILL'), 90000);
    proc.once('exit', (code, signal) => {
      clearTimeout(timer);
      const text = readFileSync(out, 'utf8');
      if (code === 0) resolve(text);
      else reject(new Error(`biloba ${name} exited with ${code ?? signal}:\n${text}`));
    });
  });
}

export async function legacyReplay(t) {
  const biloba = join(dirname(t.server.binary), 'biloba');
  const server = await new PlateauServer(t.server.binary, t.server.webDir, { biloba: true }).start();
  const dir = mkdtempSync(join(tmpdir(), 'plateau-legacy-'));
  try {
    const port = server.bilobaPort;
    const creator = client(biloba, port, dir, 'Ann', 'greedy', ['--create', 'net game', '--seed', '1']);
    for (let i = 0; ; i++) {
      const list = spawnSync(biloba, ['127.0.0.1', '--port', String(port), '--list'], { encoding: 'utf8', timeout: 20000 });
      if (list.stdout?.includes('net game')) break;
      assert(i < 300, 'the game was listed for joining');
      await sleep(100);
    }
    const joiner = client(biloba, port, dir, 'Bob', 'random', ['--join', '1', '--seed', '2']);
    const [ann, bob] = await Promise.all([creator, joiner]);
    const final = ann.match(/^Position: (.*)$/m)?.[1];
    assert(final, `the client printed its final position:\n${ann}`);
    assertEqual(bob.match(/^Position: (.*)$/m)?.[1], final, 'both clients end on the same board');

    // The store has the game once the legacy server hands it over.
    let table;
    for (let i = 0; i < 200 && !table; i++) {
      const tables = await (await fetch(`${server.base}/api/tables`)).json();
      table = tables.find((tb) => tb.game === 'biloba' && tb.status === 'over');
      if (!table) await sleep(100);
    }
    assert(table, 'the finished network game is listed');
    const record = await server.record('biloba', table.board);
    const moves = pos.recordMoves(record);
    assert(moves.length > 10, `the record has the game's turns (${moves.length})`);

    const { page } = await guest({ ...t, server });
    const link = `section.lobby a.replay[href="#/replay/biloba/${table.board}"]`;
    await page.waitForSelector(link);
    const row = await page.$eval(link, (a) => a.closest('li, tr')?.textContent ?? '');
    assert(row.includes('Ann') && row.includes('Bob'), `the lobby row names the players (${row})`);
    await page.click(link);
    await page.waitForSelector('section.replay[data-shown-ply="0"] .board');
    assertEqual(Number(await page.getAttribute('section.replay', 'data-total')), moves.length,
      'the replay has every turn');
    assertEqual((await page.textContent('section.replay .replay-players')).trim(), 'Ann – Bob',
      'the replay names the players');
    await page.keyboard.press('End');
    await page.waitForSelector(`section.replay[data-shown-ply="${moves.length}"]`);
    assertEqual(await checkBoard(page, 'biloba'), final, 'the replay ends on the clients\' final board');
    await t.artifacts.board(page, 'biloba-legacy-replay-end');
    t.log(`biloba 0.9.3 game kept as board ${table.board}: ${moves.length} turns`);
  } finally {
    const code = await server.stop();
    server.cleanup();
    rmSync(dir, { recursive: true, force: true });
    assertEqual(code, 0, 'the second server stopped cleanly');
  }
}
