// The moves of the game in canonical notation, a forced pass in its place (not numbered: it is
// no ply); in replay mode a click on a move jumps to the position after it.
import { t } from '../i18n';

interface Props {
  // `pass`: a forced pass; `end`: how the game ended for a seat (a resignation, time): no ply.
  moves: { seat: string; text: string; pass?: boolean; end?: boolean }[];
  current?: number; // number of moves shown on the board (replay), default all
  onSelect?: (plies: number) => void;
}

export function MoveList({ moves, current, onSelect }: Props) {
  const shown = current ?? moves.filter((m) => !m.pass && !m.end).length;
  return (
    <ol class="move-list" aria-label="moves">
      {numbered(moves).map(({ m, ply }) => (m.pass || m.end ? (
        <li class={m.pass ? 'pass' : 'end'} data-seat={m.seat}>
          {`${m.seat}: ${m.pass ? t('moves.pass') : m.text}`}
        </li>
      ) : (
        <li class={ply === shown ? 'current' : ''} data-ply={ply} value={ply}>
          {onSelect ? (
            <button onClick={() => onSelect(ply)}>{`${m.seat}: ${m.text}`}</button>
          ) : (
            `${m.seat}: ${m.text}`
          )}
        </li>
      )))}
    </ol>
  );
}

// Each move with its ply (passes take none).
function numbered<T extends { pass?: boolean; end?: boolean }>(moves: T[]): { m: T; ply: number }[] {
  let ply = 0;
  return moves.map((m) => ({ m, ply: m.pass || m.end ? ply : ++ply }));
}
