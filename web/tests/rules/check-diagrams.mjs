// Checks the rules pages' diagrams (web/src/rules/diagrams.json) against the rules engine: each
// record is replayed with `plateau board` and `plateau moves`; the position each diagram draws
// must be the engine's position after its plies, and the clicks it offers after its prefix
// must be exactly the engine's legal next clicks (issue 17 item 6).
//
//   node web/tests/rules/check-diagrams.mjs --plateau build/release/plateau [--write]
//
// --write fills in every diagram's position from the engine (after a record changed), then
// checks. Exit status 0 when every diagram matches, 1 otherwise (each mismatch is printed).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { enginePosition, engineSteps, formatPosition, positionOf } from '../e2e/lib/replay.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const file = resolve(here, '../../src/rules/diagrams.json');
const args = process.argv.slice(2);
const plateau = args[args.indexOf('--plateau') + 1];
if (args.indexOf('--plateau') < 0 || !plateau) {
  console.error('usage: check-diagrams.mjs --plateau PLATEAU [--write]');
  process.exit(2);
}
const data = JSON.parse(readFileSync(file, 'utf8'));

const players = (spec) => Number(/players=(\d)/.exec(spec)?.[1] ?? 2);
let failures = 0;
let count = 0;
for (const [game, pages] of Object.entries(data.pages)) {
  pages.forEach((diagrams, page) => diagrams.forEach((d, i) => {
    const where = `${game} page ${page + 1} diagram ${i + 1} (${d.record} after ${d.plies})`;
    const record = data.records[d.record];
    const fail = (what) => {
      failures++;
      console.log(`FAIL ${where}: ${what}`);
    };
    if (!record || record.game !== game) return fail(`no ${game} record named ${d.record}`);
    if (d.plies < 0 || d.plies > record.moves.length) return fail(`the record has ${record.moves.length} entries`);
    count++;
    let engine;
    try {
      engine = enginePosition(plateau, record, d.plies);
    } catch (err) {
      return fail(`the engine refused the record: ${err.stderr ?? err.message}`);
    }
    if (args.includes('--write')) d.position = formatPosition(game, engine, d.plies, players(record.spec));
    const drawn = positionOf(game, d.position);
    // A finished Biloba game prints no colour to move; its position string still names one.
    if (game === 'biloba' && engine.toMove === null) drawn.toMove = null;
    if (!isDeepStrictEqual(drawn, engine)) {
      fail(`draws ${JSON.stringify(drawn)}\n  the engine has ${JSON.stringify(engine)}`);
    }
    const steps = engineSteps(plateau, record, d.plies, d.prefix ?? []);
    // A diagram without a prefix may leave the steps out (nothing is being built).
    if ((d.prefix?.length || d.steps?.length) && !isDeepStrictEqual([...(d.steps ?? [])].sort(), steps)) {
      fail(`offers ${JSON.stringify(d.steps ?? [])} after ${JSON.stringify(d.prefix ?? [])}; the engine: ${JSON.stringify(steps)}`);
    }
  }));
}
if (args.includes('--write')) writeFileSync(file, `${JSON.stringify(data, null, 1)}\n`);
console.log(`${count} diagrams checked against ${plateau}: ${failures === 0 ? 'all match' : `${failures} mismatches`}`);
process.exit(failures === 0 ? 0 : 1);
