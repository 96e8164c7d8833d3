// The `analysis` event of `analyse BOARD#n LEVEL` (docs/PROTOCOL.md) as the panel reads it, and
// the evaluation bar turned to the viewer.
import type { ServerEvent } from '../net/connection';

export interface LineMove {
  ply: number;
  seat: string;
  move: string;
  position: string; // after the move
}

export interface Analysis {
  game: string;
  board: number;
  ply: number;
  level: string;
  seat: string; // the side to move
  score: number | null; // expected return of `seat`, 0..1; null: no evaluation (classic)
  bar: number; // the same in [-1, 1]
  exact: boolean;
  exactValue?: number; // a solver's own value (BohnDuell: the final margin with perfect play)
  best: string;
  line: LineMove[];
  nodes: number;
  ms: number;
}

export const LEVELS = ['1', '2', '3', '4', '5'];
export const DEFAULT_LEVEL = '3';

export function analyseCommand(game: string, board: number, ply: number, level: string): string {
  return `${game} analyse ${board}#${ply} ${level}`;
}

export function readAnalysis(e: ServerEvent): Analysis {
  const line = Array.isArray(e.line) ? (e.line as LineMove[]) : [];
  return {
    game: String(e.game), board: Number(e.board), ply: Number(e.ply), level: String(e.level),
    seat: String(e.seat), score: typeof e.score === 'number' ? e.score : null,
    bar: typeof e.bar === 'number' ? e.bar : 0, exact: Boolean(e.exact),
    ...(typeof e.exact_value === 'number' ? { exactValue: e.exact_value } : {}), best: String(e.best),
    line: line.map((m) => ({ ply: Number(m.ply), seat: String(m.seat), move: String(m.move),
      position: String(m.position) })),
    nodes: Number(e.nodes ?? 0), ms: Number(e.ms ?? 0),
  };
}

// The bar as `viewer` (a seat label) sees it: the server gives it from the side to move's view;
// in a two-seat game the other side's view is its opposite. With more seats (or no viewer) it
// stays the side to move's. Returns the value in [-1, 1] and whose view it is.
export function viewerBar(a: Analysis, labels: string[], viewer?: string): { value: number; seat: string } {
  if (viewer && viewer !== a.seat && labels.length === 2 && labels.includes(viewer)) {
    return { value: a.score === null ? 0 : -a.bar, seat: viewer };
  }
  return { value: a.score === null ? 0 : a.bar, seat: a.seat };
}

// The share of the bar filled for the viewer, in percent (0 = a sure loss, 100 = a sure win).
export function barPercent(value: number): number {
  return Math.round(Math.max(0, Math.min(100, (value + 1) * 50)) * 10) / 10;
}
