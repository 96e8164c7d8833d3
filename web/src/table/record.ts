// Reads the move list of a game record (DESIGN.md §3) as served at /records/GAME/N: tags are
// skipped, ply numbers and result tokens dropped, "X:pass" entries kept as passes.
export interface RecordMove {
  seat: string; // seat label when the record has one ("A", "O"), else ""
  text: string;
  forcedPass?: true; // "A:pass" in a seat-prefixed record: a turn skipped, not a move
}

// `labels`: the game's seat labels by game seat (/api/games). A numbered record ("1. H11 2. J12")
// names no seats: its plies alternate (a game whose turns can be skipped writes seat-prefixed
// records), so ply n is game seat (n - 1) mod the number of seats.
export function recordMoves(record: string, labels: string[] = []): RecordMove[] {
  const moves: RecordMove[] = [];
  let next = 1; // the ply of the next move without a seat ("12." sets it)
  for (const raw of record.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('[') || line === '') continue;
    for (const token of line.replace(/\{[^}]*\}/g, ' ').split(/\s+/)) {
      const number = /^(\d+)\.(.*)$/.exec(token);
      if (number) next = Math.max(1, Number(number[1]));
      if (token === '' || /^\d+\.$/.test(token) || /^[\d/*-]+$/.test(token)) continue;
      const colon = token.indexOf(':');
      if (colon > 0) {
        const move: RecordMove = { seat: token.slice(0, colon), text: token.slice(colon + 1) };
        if (move.text.toLowerCase() === 'pass') move.forcedPass = true;
        moves.push(move);
      } else {
        moves.push({ seat: seatOfPly(labels, next), text: number ? number[2] : token });
        next++;
      }
    }
  }
  return moves;
}

// The label of the seat that made ply `ply` (from 1) in a numbered record; "" without labels.
export function seatOfPly(labels: string[], ply: number): string {
  return labels.length > 0 && ply > 0 ? labels[(ply - 1) % labels.length] : '';
}

// The moves played (one per ply), forced passes left out.
export function playedMoves(record: string, labels: string[] = []): RecordMove[] {
  return recordMoves(record, labels).filter((m) => !m.forcedPass);
}

export function recordTag(record: string, name: string): string | undefined {
  const m = new RegExp(`^\\[${name} "((?:[^"\\\\]|\\\\.)*)"\\]`, 'm').exec(record);
  return m ? m[1].replace(/\\(.)/g, '$1') : undefined;
}

// The players by game seat from the Seats tag ("alice,cpu:3"; an imported network game's
// names as its players gave them); [] without the tag.
export function recordSeats(record: string): string[] {
  const seats = recordTag(record, 'Seats');
  return seats ? seats.split(',').map((s) => s.trim()).filter((s) => s !== '') : [];
}

// The move list as players read it: a forced pass shown where the turn was skipped. In a
// two-seat game the same seat moving twice in a row means the other had to pass (exactly when
// the record writes "X:pass", core/record.cpp); `labels` are the game's seat labels.
export function withPasses<T extends { seat: string; text: string }>(moves: T[], labels: string[]):
  (T | { seat: string; text: string; pass: true })[] {
  if (labels.length !== 2) return moves;
  const out: (T | { seat: string; text: string; pass: true })[] = [];
  moves.forEach((m, i) => {
    if (i > 0 && m.seat !== '' && m.seat === moves[i - 1].seat) {
      out.push({ seat: labels[1 - labels.indexOf(m.seat)] ?? '', text: 'pass', pass: true });
    }
    out.push(m);
  });
  return out;
}

// How a two-seat game ended for its loser when the rules did not end it: one last entry of the
// move list ("B: resigned", "A: out of time"), as pbmserv's pages write Resign / Forfeit.
// `say` gives the words of an i18n key.
export function endEntries(result: { result: string; reason: string } | undefined,
  labels: string[], say: (key: string) => string): { seat: string; text: string; end: true }[] {
  const keys: Record<string, string> = {
    resign: 'moves.resigned', time: 'moves.outOfTime', 'forfeit time': 'moves.forfeited',
  };
  const key = keys[result?.reason ?? ''];
  const values = result?.result.split('-') ?? [];
  if (!key || labels.length !== 2 || values.length !== 2 || values[0] === values[1]) return [];
  return [{ seat: labels[values[0] === '0' ? 0 : 1], text: say(key), end: true }];
}
