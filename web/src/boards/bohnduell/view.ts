// BohnDuell position string (specs/bohnduell.md §7, src/games/bohnduell/bohnduell_notation.h):
//   "A[0 1 1 1] s8 S0 · B[0 0 0 1] s11 S1 · A to move"   (or "· over")
// Bowls are listed by distance from the owner's store (index 0 = distance 1).

export interface BohnDuellSide {
  bowls: [number, number, number, number];
  supply: number;
  store: number;
}

export interface BohnDuellView {
  sides: [BohnDuellSide, BohnDuellSide];
  toMove: 0 | 1 | null; // null once the game is over
}

const SIDE = /([AB])\[(\d+) (\d+) (\d+) (\d+)\] s(\d+) S(\d+)/g;

export function parseBohnDuell(position: string): BohnDuellView {
  const sides: BohnDuellSide[] = [];
  for (const m of position.matchAll(SIDE)) {
    const n = m.slice(2).map(Number);
    sides.push({ bowls: [n[0], n[1], n[2], n[3]], supply: n[4], store: n[5] });
  }
  if (sides.length !== 2) throw new Error(`not a BohnDuell position: ${position}`);
  const over = /· over\s*$/.test(position);
  const toMove = over ? null : /B to move\s*$/.test(position) ? 1 : 0;
  return { sides: [sides[0], sides[1]], toMove };
}

// The bowl a move touches, for the last-move mark: "S3" / "H2" by seat A -> ["A3"] (data-bowl).
export function bohnDuellMarks(move: string, seatLabel: string): string[] {
  const m = /^[SH]([1-4])$/i.exec(move.trim());
  return m ? [`${seatLabel.toUpperCase()}${m[1]}`] : [];
}
