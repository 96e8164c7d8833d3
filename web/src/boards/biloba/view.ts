// Biloba position string (specs/biloba.md §7.5):
//   "##..O..##/#..OOO..#/..OOOOO../.OOOOOOO./....*..../.BBBBBBB./..BBBBB../#..BBB..#/##..B..## O 2"
// Nine rows from rank 9 (y = 0) to rank 1 (y = 8); '#' unplayable, '*' empty centre, '.' empty,
// O B R G pawns of seats 0..3; then the colour to move and the number of players.

export const BILOBA_COLOURS = ['O', 'B', 'R', 'G'] as const;
export type BilobaCell = '#' | '*' | '.' | 'O' | 'B' | 'R' | 'G';

export interface BilobaView {
  cells: BilobaCell[][]; // cells[y][x]
  toMove: number; // seat 0..3
  players: number;
}

export function squareName(x: number, y: number): string {
  return `${'abcdefghi'[x]}${9 - y}`;
}

export function parseBiloba(position: string): BilobaView {
  const [board, colour, players] = position.trim().split(/\s+/);
  const rows = (board ?? '').split('/');
  if (rows.length !== 9 || rows.some((r) => r.length !== 9)) {
    throw new Error(`not a Biloba position: ${position}`);
  }
  const cells = rows.map((r) => [...r.toUpperCase()] as BilobaCell[]);
  const toMove = BILOBA_COLOURS.indexOf((colour ?? 'O').toUpperCase() as 'O');
  return { cells, toMove: Math.max(0, toMove), players: Number(players ?? '2') };
}

// The squares a move touches, for the last-move mark: "d6-e5-f5/c4-d4" -> the five squares;
// "x", "out", "pass" -> [].
export function bilobaMarks(move: string): string[] {
  return [...move.toLowerCase().matchAll(/[a-i][1-9]/g)].map((m) => m[0]);
}

// The pawns each seat has on the board, by seat (as many as the game has players).
export function bilobaPawnCounts(position: string): number[] {
  const view = parseBiloba(position);
  const flat = view.cells.flat();
  return BILOBA_COLOURS.slice(0, view.players).map((c) => flat.filter((x) => x === c).length);
}
