// The browser tests of issue 7: `plateau serve` on free ports with a temporary data directory
// and the built client, driven by playwright-core through Debian's Chromium (headless).
//
//   node web/tests/e2e/run.mjs --plateau build/release/plateau [--web-dir web/dist]
//        [--artifacts build/release/web-artifacts] [--chromium /usr/bin/chromium] [--only NAME]
//
// Scenarios: a whole game against a CPU seat in each game (then its replay step by step), two
// browsers playing each other with a spectator, a challenge by name, the lobby forms built from
// /api/games (a three-player challenge), the rules of each game page
// by page, phone width, the replay of a biloba 0.9.3 network game kept by the server, one watched live
// while it is played, a reload mid-game
// (still seated, guest and account), a WebSocket dropped mid-game (resync: the move list is the
// record) and a move whose answer was lost (sent again with its #n, stored once); issues 15 and
// 17: your turn (list, title count, chime, notification), settings and ratings, the table fixes
// (scenarios/table-fixes.mjs), axe-core (a11y) and the user guide's pictures (guide); the
// new-table form from /api/games and sign-out from the lobby (lobby-form.mjs), the Biloba rules
// pages' real positions (rules-positions.mjs).
// Screenshots of every board go to the artifacts directory. Exit
// status: 0 all passed, 1 a failure, 77 skipped (no Chromium; ctest reports it as skipped).
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PlateauServer } from './lib/server.mjs';
import { Artifacts, probe, rng } from './lib/ui.mjs';
import { vsCpu } from './scenarios/vs-cpu.mjs';
import { twoPlayers } from './scenarios/two-players.mjs';
import { challenge } from './scenarios/challenge.mjs';
import { rules } from './scenarios/rules.mjs';
import { phone } from './scenarios/phone.mjs';
import { legacyReplay } from './scenarios/legacy.mjs';
import { legacyLive } from './scenarios/legacy-live.mjs';
import { reload } from './scenarios/reload.mjs';
import { lostAck, reconnect } from './scenarios/reconnect.mjs';
import { forms } from './scenarios/forms.mjs';
import { lobbyForm, lobbySignOut } from './scenarios/lobby-form.mjs';
import { rulesPositions } from './scenarios/rules-positions.mjs';
import { settingsPage, yourTurn } from './scenarios/your-turn.mjs';
import { a11y } from './scenarios/a11y.mjs';
import { guide } from './scenarios/guide.mjs';
import { bilobaHints, forcedPass, phutballPath, startSeats, timeLoss } from './scenarios/table-fixes.mjs';
import { analysis } from './scenarios/analysis.mjs';
import * as strategies from './scenarios/strategies.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = { 'web-dir': resolve(here, '../../dist'), chromium: '/usr/bin/chromium' };
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
args.artifacts ??= resolve(here, '../../../build/web-artifacts');

if (!args.plateau || !existsSync(args.plateau)) {
  console.error(`usage: run.mjs --plateau PLATEAU_BINARY (got ${args.plateau})`);
  process.exit(1);
}
if (!existsSync(args.chromium)) {
  console.log(`SKIP: no Chromium at ${args.chromium} (Debian: apt-get install chromium)`);
  process.exit(77);
}
if (!existsSync(resolve(args['web-dir'], 'index.html'))) {
  console.error(`no built client in ${args['web-dir']}: run make web (npm ci && npm run build in web/)`);
  process.exit(1);
}

const SCENARIOS = {
  'bohnduell-vs-cpu': (t) => vsCpu(t, { game: 'bohnduell', level: '1', clock: 'fischer:300+5',
    strategy: strategies.bohnduell(rng(1)) }),
  'phutball-vs-cpu': (t) => vsCpu(t, { game: 'phutball', level: 'random', rulesFromBoard: true,
    strategy: strategies.phutball(rng(2)) }),
  'biloba-vs-cpu': (t) => vsCpu(t, { game: 'biloba', level: '1', hints: [],
    strategy: (hints) => strategies.bilobaKeyboard(rng(3), hints) }),
  'two-players': twoPlayers,
  challenge,
  forms,
  'lobby-form': lobbyForm,
  'lobby-sign-out': lobbySignOut,
  'rules-positions': rulesPositions,
  rules,
  phone,
  'legacy-replay': legacyReplay,
  'legacy-live': legacyLive,
  reload,
  reconnect,
  'lost-ack': lostAck,
  'your-turn': yourTurn,
  settings: settingsPage,
  'phutball-path': phutballPath,
  'time-loss': timeLoss,
  'start-seats': startSeats,
  'forced-pass': forcedPass,
  a11y,
  'biloba-hints': bilobaHints,
  guide,
  analysis,
};

// A misspelt --only name would otherwise run nothing and pass.
const unknown = (args.only ?? '').split(',').filter((n) => n && !(n in SCENARIOS));
if (unknown.length) {
  console.error(`unknown scenario ${unknown.join(', ')}; known: ${Object.keys(SCENARIOS).join(', ')}`);
  process.exit(2);
}

const { chromium } = await import('playwright-core');
const started = Date.now();
const server = await new PlateauServer(resolve(args.plateau), resolve(args['web-dir'])).start();
let browser;
let failures = 0;
try {
  browser = await chromium.launch({
    executablePath: args.chromium,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
  });
  const artifacts = new Artifacts(resolve(args.artifacts));
  const t = { browser, server, artifacts, errors: [], log: (line) => console.log(`    ${line}`) };
  t.probe = await probe(browser, server.base);
  console.log(`plateau serve at ${server.base}, Chromium ${browser.version()}`);
  for (const [name, run] of Object.entries(SCENARIOS)) {
    if (args.only && !args.only.split(',').includes(name)) continue;
    const start = Date.now();
    t.errors.length = 0;
    t.contexts = [];
    try {
      await run(t);
      if (t.errors.length > 0) throw new Error(`the page reported errors:\n  ${t.errors.join('\n  ')}`);
      console.log(`ok   ${name} (${((Date.now() - start) / 1000).toFixed(1)} s)`);
    } catch (err) {
      failures++;
      console.log(`FAIL ${name} (${((Date.now() - start) / 1000).toFixed(1)} s)\n${err.stack ?? err}`);
      const pages = t.contexts.flatMap((context) => context.pages());
      for (const [i, page] of pages.entries()) {
        await page.screenshot({ path: artifacts.path(`FAILED-${name}-${i}.png`), fullPage: true }).catch(() => {});
      }
    }
    for (const context of t.contexts) await context.close().catch(() => {});
  }
  await t.probe.close();
  console.log(`screenshots: ${artifacts.dir} (${artifacts.files.length} files)`);
} finally {
  await browser?.close();
  const code = await server.stop();
  if (code !== 0) {
    failures++;
    console.log(`FAIL plateau serve stopped with status ${code}`);
  }
  if (failures > 0) console.log(`--- server log (last 40 lines) ---\n${server.log().split('\n').slice(-40).join('\n')}`);
  server.cleanup();
}
console.log(`${failures === 0 ? 'all passed' : `${failures} failed`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(failures === 0 ? 0 : 1);
