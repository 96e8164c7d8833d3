// The moves of the game in canonical notation, numbered by ply; in replay mode a click on a
// move jumps to the position after it.
interface Props {
  moves: { seat: string; text: string }[];
  current?: number; // number of moves shown on the board (replay), default all
  onSelect?: (plies: number) => void;
}

export function MoveList({ moves, current, onSelect }: Props) {
  const shown = current ?? moves.length;
  return (
    <ol class="move-list" aria-label="moves">
      {moves.map((m, i) => (
        <li class={i + 1 === shown ? 'current' : ''}>
          {onSelect ? (
            <button onClick={() => onSelect(i + 1)}>{`${m.seat}: ${m.text}`}</button>
          ) : (
            `${m.seat}: ${m.text}`
          )}
        </li>
      ))}
    </ol>
  );
}
