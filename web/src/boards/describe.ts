// Words for what happens on the board, per game, from the server's positions and steps only
// (the rules stay on the server): what the current click chooses, and what the last move did.
// Each returns i18n keys with their parameters; TableView puts them into words.
import { parseBohnDuell } from './bohnduell/view';
import { BILOBA_COLOURS as BILOBA_SEATS, parseBiloba } from './biloba/view';

export interface Said {
  key: string;
  params?: Record<string, string | number>;
}

// What the next click of the player to move chooses (undefined: nothing special to say).
// `prefix`: the steps taken, `next`: the legal next steps, `position`: the table's position;
// `ahead`: the steps that would follow each of `next` (see wantsLookahead), when asked.
export function stepHint(game: string, prefix: string[], next: string[], position: string,
  ahead?: string[]): Said | undefined {
  if (next.length === 0) return undefined;
  if (game === 'bohnduell') return { key: 'hint.bohnduell' };
  if (game === 'phutball') {
    if (prefix.length === 0) return { key: 'hint.phutball.start' };
    return { key: 'hint.phutball.jump', params: { from: prefix[prefix.length - 1] } };
  }
  if (game === 'biloba') {
    const hint = bilobaHint(prefix, next, position);
    // Every refilling pawn goes to the same emptied square: name it.
    if (hint.key === 'hint.biloba.refillFrom' && ahead?.length === 1) {
      return { key: 'hint.biloba.refillSquare', params: { square: ahead[0] } };
    }
    return hint;
  }
  return undefined;
}

// Whether the hint would say more with the steps after each of `next` (the server's answers to
// one more step query each): the square a Biloba refill fills.
export function wantsLookahead(game: string, prefix: string[], next: string[],
  position: string): boolean {
  return game === 'biloba' && next.length <= 4 &&
    bilobaHint(prefix, next, position).key === 'hint.biloba.refillFrom';
}

// Biloba (specs/biloba.md §5.2): the pawn to move, its target (or, on the centre, its way
// out), then for each capture the pawn that refills and the square it refills. Own pawns
// offered after the move are refilling pawns; empty squares after one of those, its targets.
function bilobaHint(prefix: string[], next: string[], position: string): Said {
  let view;
  try {
    view = parseBiloba(position);
  } catch {
    return { key: 'hint.biloba.select' };
  }
  const mine = BILOBA_SEATS[view.toMove];
  const at = (sq: string) => view.cells[9 - Number(sq.slice(1))]['abcdefghi'.indexOf(sq[0])];
  const ownPawns = next.every((sq) => at(sq) === mine);
  if (prefix.length === 0) return { key: ownPawns ? 'hint.biloba.select' : 'hint.biloba.refillTo' };
  if (prefix.length === 1) return { key: 'hint.biloba.destination', params: { from: prefix[0] } };
  const last = prefix[prefix.length - 1];
  if (last === 'e5' && prefix.length === 2) return { key: 'hint.biloba.centre' };
  if (ownPawns) return { key: 'hint.biloba.refillFrom' };
  return { key: 'hint.biloba.refillTo', params: { from: last } };
}

// What a move did beyond its notation: steals and harvests (BohnDuell), captures, forced takes
// and eliminations (Biloba). `before` and `after`: the positions around it; `seat`: its label;
// `names`: the players by game seat, `labels` their seat labels.
export function describeMove(game: string, move: string, seat: string, before: string,
  after: string, names: string[], labels: string[]): Said[] {
  try {
    if (game === 'bohnduell') return bohnDuellSaid(move, seat, before, after, names, labels);
    if (game === 'biloba') return bilobaSaid(move, seat, before, after, names);
  } catch {
    // a position that does not parse: say nothing rather than something wrong
  }
  return [];
}

function bohnDuellSaid(move: string, seat: string, before: string, after: string,
  names: string[], labels: string[]): Said[] {
  const mover = labels.indexOf(seat);
  if (mover < 0) return [];
  const [b, a] = [parseBohnDuell(before), parseBohnDuell(after)];
  const who = names[mover] ?? seat;
  const out: Said[] = [];
  const bowl = move.slice(1);
  if (/^H/i.test(move)) out.push({ key: 'said.harvest', params: { who, bowl } });
  else out.push({ key: 'said.sow', params: { who, bowl } });
  const sum = (bowls: number[]) => bowls.reduce((x, y) => x + y, 0);
  // The other side's bowls lose balls only to a steal (while the game goes on).
  const stolen = sum(b.sides[1 - mover].bowls) - sum(a.sides[1 - mover].bowls);
  if (stolen > 0 && a.toMove !== null) out.push({ key: 'said.steal', params: { who, n: stolen } });
  return out;
}

function bilobaSaid(move: string, seat: string, before: string, after: string,
  names: string[]): Said[] {
  const [b, a] = [parseBiloba(before), parseBiloba(after)];
  const count = (v: typeof b, c: string) => v.cells.flat().filter((x) => x === c).length;
  const out: Said[] = [];
  const colourOf = (i: number) => names[i] ?? BILOBA_SEATS[i];
  if (/^x/i.test(move)) out.push({ key: 'said.forcedTake', params: { seat } });
  BILOBA_SEATS.slice(0, b.players).forEach((c, i) => {
    const lost = count(b, c) - count(a, c);
    if (lost > 0 && count(a, c) === 0) out.push({ key: 'said.out', params: { who: colourOf(i) } });
    else if (lost > 0) out.push({ key: 'said.captured', params: { who: colourOf(i), n: lost } });
  });
  if (/(^|\+)out$/i.test(move) && !out.some((s) => s.key === 'said.out')) {
    out.push({ key: 'said.out', params: { who: seat } });
  }
  return out;
}
