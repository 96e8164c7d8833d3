// Phutball position string (src/games/phutball/phutball_notation.h):
//   "ball=H10 men=H11,H12,J12 turn=X ply=3 [history=...]"
// Columns A..P without I; rows 1..19 (1..20 on a half-point handicap board), 0 and rows+1 are
// the off-board goal rows where only the ball can be.

export const PHUTBALL_COLUMNS = 'ABCDEFGHJKLMNOP';

export interface PhutballPoint {
  column: number; // 0..14, -1 for '@', 15 for 'Q' (corner exits)
  row: number; // 0..rows+1
}

export interface PhutballView {
  rows: number; // 19 or 20
  ball: PhutballPoint;
  men: PhutballPoint[];
  toMove: 0 | 1; // 0 = Ohs (O), 1 = Eks (X)
  ply: number;
}

export function parsePoint(name: string): PhutballPoint {
  const letter = name[0].toUpperCase();
  const column = letter === '@' ? -1 : letter === 'Q' ? 15 : PHUTBALL_COLUMNS.indexOf(letter);
  const row = Number(name.slice(1));
  if (column < -1 || Number.isNaN(row)) throw new Error(`bad point ${name}`);
  return { column, row };
}

export function pointName(p: PhutballPoint): string {
  const letter = p.column === -1 ? '@' : p.column === 15 ? 'Q' : PHUTBALL_COLUMNS[p.column];
  return `${letter}${p.row}`;
}

export function parsePhutball(position: string, rows = 19): PhutballView {
  const fields = new Map<string, string>();
  for (const part of position.trim().split(/\s+/)) {
    const eq = part.indexOf('=');
    if (eq > 0) fields.set(part.slice(0, eq), part.slice(eq + 1));
  }
  const ball = fields.get('ball');
  if (!ball) throw new Error(`not a Phutball position: ${position}`);
  const men = (fields.get('men') ?? '').split(',').filter((s) => s.length > 0).map(parsePoint);
  return {
    rows,
    ball: parsePoint(ball),
    men,
    toMove: fields.get('turn') === 'X' ? 1 : 0,
    ply: Number(fields.get('ply') ?? '0'),
  };
}

// The points a move touches, for the last-move mark: "H11" -> ["H11"], "H10-H13-L10" -> all three.
export function phutballMarks(move: string): string[] {
  return move.trim().toUpperCase().split('-').filter((p) => /^[@A-HJ-Q]\d{1,2}$/.test(p));
}

// Rows of the board with these table options: 20 on a half-point handicap board (§2.3).
export function phutballRows(options: string): number {
  return /handicap=-?\d*\.5/.test(options) ? 20 : 19;
}
