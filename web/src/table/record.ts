// Reads the move list of a game record (DESIGN.md §3) as served at /records/GAME/N: tags are
// skipped, ply numbers and result tokens dropped, "X:pass" entries kept as passes.
export interface RecordMove {
  seat: string; // seat label when the record has one ("A", "O"), else ""
  text: string;
}

export function recordMoves(record: string): RecordMove[] {
  const moves: RecordMove[] = [];
  for (const raw of record.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('[') || line === '') continue;
    for (const token of line.replace(/\{[^}]*\}/g, ' ').split(/\s+/)) {
      if (token === '' || /^\d+\.$/.test(token) || /^[\d/*-]+$/.test(token)) continue;
      const colon = token.indexOf(':');
      moves.push(colon > 0
        ? { seat: token.slice(0, colon), text: token.slice(colon + 1) }
        : { seat: '', text: token.replace(/^\d+\./, '') });
    }
  }
  return moves;
}

export function recordTag(record: string, name: string): string | undefined {
  const m = new RegExp(`^\\[${name} "((?:[^"\\\\]|\\\\.)*)"\\]`, 'm').exec(record);
  return m ? m[1].replace(/\\(.)/g, '$1') : undefined;
}

// The players by game seat from the Seats tag ("alice,cpu:3"; a biloba 0.9.3 network game's
// names as its players gave them); [] without the tag.
export function recordSeats(record: string): string[] {
  const seats = recordTag(record, 'Seats');
  return seats ? seats.split(',').map((s) => s.trim()).filter((s) => s !== '') : [];
}
