// The moves of the game in canonical notation, a forced pass in its place (not numbered: it is
// no ply); in replay mode a click on a move jumps to the position after it.
import { t } from '../i18n';

interface Props {
  moves: { seat: string; text: string; pass?: boolean }[];
  current?: number; // number of moves shown on the board (replay), default all
  onSelect?: (plies: number) => void;
}

export function MoveList({ moves, current, onSelect }: Props) {
  const shown = current ?? moves.filter((m) => !m.pass).length;
  return (
    <ol class="move-list" aria-label="moves">
      {numbered(moves).map(({ m, ply }) => (m.pass ? (
        <li class="pass" data-pass={m.seat}>{`${m.seat}: ${t('moves.pass')}`}</li>
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
function numbered<T extends { pass?: boolean }>(moves: T[]): { m: T; ply: number }[] {
  let ply = 0;
  return moves.map((m) => ({ m, ply: m.pass ? ply : ++ply }));
}
