// Replays a record with the rules engine (`plateau board` and `plateau moves`, the command line's
// own rules) and reads what it prints: the positions the rules pages draw (web/src/rules/
// diagrams.json) are checked against it, never against the client's own parsers.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pos from './positions.mjs';

// Runs `plateau SUBCOMMAND SPEC --record FILE` on the first `plies` entries of `record`
// ({ game, spec, moves }) and returns its standard output.
function run(plateau, subcommand, record, plies) {
  const dir = mkdtempSync(join(tmpdir(), 'plateau-rules-'));
  try {
    const file = join(dir, 'game.record');
    // The spec's options ("biloba(players=4)") are the record's Options tag.
    const options = /\((.*)\)$/.exec(record.spec)?.[1];
    const tags = `[Game "${record.game}"]\n${options ? `[Options "${options}"]\n` : ''}`;
    writeFileSync(file, `${tags}${record.moves.slice(0, plies).join(' ')}\n`);
    return execFileSync(plateau, [subcommand, record.spec, '--record', file], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const COLOURS = { Orange: 'O', Blue: 'B', Red: 'R', Green: 'G' };

// The text board of each game (src/games/GAME text boards) read into the shapes of
// lib/positions.mjs, so that both sides compare as plain data.
const READERS = {
  // "9  # # . . O . . # #  9" ... "Orange to move. Pawns: ..." (or "Result: ...").
  biloba(text) {
    const pawns = {};
    for (const line of text.split('\n')) {
      const m = /^([1-9]) {2}((?:\S ){8}\S) {2}\1$/.exec(line);
      if (!m) continue;
      m[2].split(' ').forEach((c, x) => {
        if ('OBRG'.includes(c)) pawns[`${'abcdefghi'[x]}${m[1]}`] = c;
      });
    }
    const turn = /^(\w+) to move\./m.exec(text);
    return { pawns: sorted(pawns), toMove: turn ? COLOURS[turn[1]] : null };
  },
  // "10  . . . . . . . @ . . ..  10": '@' the ball, '+' a man.
  phutball(text) {
    const men = [];
    let ball;
    for (const line of text.split('\n')) {
      const m = /^\s?(\d{1,2}) {2}((?:\S ){14}\S) {2}\d{1,2}$/.exec(line);
      if (!m) continue;
      m[2].split(' ').forEach((c, x) => {
        const point = `${pos.PHUTBALL_COLUMNS[x]}${m[1]}`;
        if (c === '@') ball = point;
        else if (c === '+') men.push(point);
      });
    }
    return { ball, men: men.sort() };
  },
  // "[  4]   3   1   0   8" (B's store, B1..B4), "        5   1   4   2  [ 12]" (A4..A1, A's
  // store), "B ...: supply 0, store 4", "A to move." (or "Game over: ...").
  bohnduell(text) {
    const lines = text.split('\n');
    const top = /^\[\s*(\d+)\]\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*$/.exec(lines.find((l) => l.startsWith('[')) ?? '');
    const bottom = /^\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+\[\s*(\d+)\]\s*$/.exec(lines.find((l) => /\]\s*$/.test(l) && !l.startsWith('[')) ?? '');
    const supply = (side) => Number(new RegExp(`^${side}\\b[^\\n]*supply (\\d+)`, 'm').exec(text)?.[1]);
    if (!top || !bottom) throw new Error(`not a BohnDuell text board:\n${text}`);
    const turn = /^([AB]) to move\./m.exec(text);
    return {
      toMove: turn ? turn[1] : null,
      A: { bowls: [4, 3, 2, 1].map((i) => Number(bottom[i])), supply: supply('A'), store: Number(bottom[5]) },
      B: { bowls: [2, 3, 4, 5].map((i) => Number(top[i])), supply: supply('B'), store: Number(top[1]) },
    };
  },
};

function sorted(o) {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
}

// What the engine says the position is after `plies` entries of `record`.
export function enginePosition(plateau, record, plies) {
  return READERS[record.game](run(plateau, 'board', record, plies));
}

// The same shape read from a position string (State::serialize) by the independent readers of
// lib/positions.mjs. Phutball's turn and ply, which its text board does not print, are left out.
export function positionOf(game, position) {
  if (game === 'biloba') {
    const p = pos.biloba(position);
    return { pawns: p.pawns, toMove: p.toMove };
  }
  if (game === 'phutball') {
    const p = pos.phutball(position);
    return { ball: p.ball, men: p.men };
  }
  return pos.bohnduell(position);
}

// The clicks of a move (specs/biloba.md §7.3: "g7-i5/g5-h5" -> g7 i5 g5 h5; "x/h5-g5" -> h5 g5;
// Phutball "H10-H13-L10" -> H10 H13 L10; BohnDuell "S2" -> S2).
export function clicks(game, move) {
  if (game === 'bohnduell') return move === 'pass' ? [] : [move];
  return move.split(/[-/]/).filter((part) => !['x', 'out', '+out', 'pass'].includes(part.toLowerCase()));
}

// The legal next clicks after `prefix` in the position after `plies` entries of `record`, sorted:
// what a player building a move there is offered.
export function engineSteps(plateau, record, plies, prefix) {
  const moves = run(plateau, 'moves', record, plies).split('\n').filter(Boolean);
  const next = new Set();
  for (const move of moves) {
    const c = clicks(record.game, move);
    if (c.length > prefix.length && prefix.every((p, i) => c[i].toLowerCase() === p.toLowerCase())) {
      next.add(c[prefix.length]);
    }
  }
  return [...next].sort();
}

// A position string in the game's serialisation, written from what the engine prints (`p`, as
// enginePosition returns it): how the diagrams' positions are filled in (`check-diagrams.mjs
// --write`); the check then reads them back with lib/positions.mjs.
export function formatPosition(game, p, plies, players = 2) {
  if (game === 'biloba') {
    const rows = [];
    for (let rank = 9; rank >= 1; rank--) {
      let row = '';
      for (let x = 0; x < 9; x++) {
        const square = `${'abcdefghi'[x]}${rank}`;
        const corner = (rank === 9 || rank === 1) ? x < 2 || x > 6 : (rank === 8 || rank === 2) && (x === 0 || x === 8);
        row += p.pawns[square] ?? (corner ? '#' : square === 'e5' ? '*' : '.');
      }
      rows.push(row);
    }
    return `${rows.join('/')} ${p.toMove ?? 'O'} ${players}`;
  }
  if (game === 'phutball') {
    return `ball=${p.ball} men=${p.men.join(',')} turn=${plies % 2 === 0 ? 'O' : 'X'} ply=${plies}`;
  }
  const side = (s) => `${s}[${p[s].bowls.join(' ')}] s${p[s].supply} S${p[s].store}`;
  return `${side('A')} · ${side('B')} · ${p.toMove ? `${p.toMove} to move` : 'over'}`;
}
