// The points, squares or bowls a move touches, read from its canonical notation, so that boards
// can highlight the last move without knowing any rule:
//   BohnDuell "S3" / "H2" by seat A -> ["A3"] (the bowl sown into or harvested, as data-bowl)
//   Phutball  "H11" or "H10-H13-L10" -> ["H11"] / ["H10", "H13", "L10"]
//   Biloba    "d6-e5-f5/c4-d4" -> ["d6", "e5", "f5", "c4", "d4"]; "x", "out", "pass" -> []
export function moveMarks(game: string, move: string, seatLabel: string): string[] {
  switch (game) {
    case 'bohnduell': {
      const m = /^[SH]([1-4])$/i.exec(move.trim());
      return m ? [`${seatLabel.toUpperCase()}${m[1]}`] : [];
    }
    case 'phutball':
      return move.trim().toUpperCase().split('-').filter((p) => /^[@A-HJ-Q]\d{1,2}$/.test(p));
    case 'biloba':
      return [...move.toLowerCase().matchAll(/[a-i][1-9]/g)].map((m) => m[0]);
    default:
      return [];
  }
}
