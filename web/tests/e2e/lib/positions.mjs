// Independent readers of the three games' position strings (State::serialize), used to check
// what the browser draws; deliberately not the client's own parsers (web/src/boards/GAME/view.ts).

// BohnDuell "A[0 1 1 1] s8 S0 · B[0 0 0 1] s11 S1 · A to move" ->
// { A: {bowls:[..4], supply, store}, B: {...}, toMove: 'A'|'B'|null }
export function bohnduell(position) {
  const out = { toMove: null };
  for (const m of position.matchAll(/([AB])\[(\d+) (\d+) (\d+) (\d+)\] s(\d+) S(\d+)/g)) {
    out[m[1]] = { bowls: m.slice(2, 6).map(Number), supply: Number(m[6]), store: Number(m[7]) };
  }
  const turn = /· ([AB]) to move\s*$/.exec(position);
  if (turn) out.toMove = turn[1];
  if (!out.A || !out.B) throw new Error(`not a BohnDuell position: ${position}`);
  return out;
}

// Phutball "ball=H10 men=H11,J12 turn=X ply=2" -> { ball, men: sorted [...], turn, ply }
export function phutball(position) {
  const fields = Object.fromEntries(position.trim().split(/\s+/).map((f) => f.split('=')));
  if (!fields.ball) throw new Error(`not a Phutball position: ${position}`);
  return {
    ball: fields.ball.toUpperCase(),
    men: (fields.men ?? '').split(',').filter(Boolean).map((p) => p.toUpperCase()).sort(),
    turn: fields.turn,
    ply: Number(fields.ply),
  };
}

export const PHUTBALL_COLUMNS = 'ABCDEFGHJKLMNOP';
export const phutballRow = (point) => Number(point.slice(1));
export const phutballColumn = (point) => PHUTBALL_COLUMNS.indexOf(point[0]);

// Biloba "##..O..##/.../##..B..## O 2" -> { pawns: {square: colour} (sorted keys), toMove, players }
export function biloba(position) {
  const [board, toMove, players] = position.trim().split(/\s+/);
  const rows = board.split('/');
  if (rows.length !== 9) throw new Error(`not a Biloba position: ${position}`);
  const pawns = {};
  rows.forEach((row, y) => [...row].forEach((c, x) => {
    if ('OBRG'.includes(c.toUpperCase())) pawns[`${'abcdefghi'[x]}${9 - y}`] = c.toUpperCase();
  }));
  return { pawns: sortKeys(pawns), toMove, players: Number(players) };
}

function sortKeys(o) {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
}

// The moves of a game record (DESIGN.md §3): tag lines and ply numbers skipped, forced passes
// ("A:pass") are not moves. -> [{ seat, move }]
export function recordMoves(record) {
  return recordEntries(record).filter((m) => m.move.toLowerCase() !== 'pass');
}

// The entries of a game record in order, forced passes included. -> [{ seat, move }]
export function recordEntries(record) {
  const body = record.split('\n').filter((l) => !l.startsWith('[')).join(' ');
  return body.split(/\s+/).filter((tok) => tok && !/^\d+\.$/.test(tok) && !/^(1-0|0-1|1\/2-1\/2|\*|[\d/]+(-[\d/]+)+)$/.test(tok))
    .map((tok) => {
      const colon = tok.indexOf(':');
      return colon > 0 ? { seat: tok.slice(0, colon), move: tok.slice(colon + 1) } : { seat: '', move: tok.replace(/^\d+\./, '') };
    });
}

export function recordTag(record, name) {
  const m = new RegExp(`^\\[${name} "([^"]*)"\\]`, 'm').exec(record);
  return m ? m[1] : undefined;
}
