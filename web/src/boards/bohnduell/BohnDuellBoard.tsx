// BohnDuell: two rows of four bowls, the stores and both supplies (specs/bohnduell.md §1, §8).
// The viewer's row is at the bottom, sowing left to right towards the store at the right. The
// bowl of the last move is marked; the moves are buttons (arrow keys move between them).
import './BohnDuellBoard.css';
import type { BohnDuellView } from './view';
import type { BoardInput } from '../types';
import { t } from '../../i18n';

interface Props extends BoardInput {
  view: BohnDuellView;
  names?: string[];
}

const W = 520;
const H = 300;
const BOWL = 44;
export const BOHNDUELL_COLOURS = ['#c0392b', '#2e7d32']; // by seat: A, B

function balls(count: number, cx: number, cy: number, colour: string) {
  // Up to 12 balls drawn; the number is always written.
  const shown = Math.min(count, 12);
  const out = [];
  for (let i = 0; i < shown; i++) {
    const angle = (i / 12) * Math.PI * 2 - Math.PI / 2;
    const r = 17; // a ring, so the count in the middle stays readable
    out.push(<circle cx={cx + r * Math.cos(angle)} cy={cy + r * Math.sin(angle)} r={5} fill={colour} />);
  }
  return out;
}

export function BohnDuellBoard(props: Props) {
  const { view, steps, lastMove, onStep } = props;
  const last = new Set(lastMove ?? []);
  const viewer = props.viewer ?? 0;
  const top = 1 - viewer;
  const colours = BOHNDUELL_COLOURS;
  const seatName = (s: number) => props.names?.[s] ?? (s === 0 ? 'A' : 'B');
  const legal = new Set(steps);
  // Column c (0..3) holds the top player's bowl at distance c+1 and the viewer's at 4-c.
  const x = (c: number) => 130 + c * 80;
  const bowl = (seat: number, d: number, cx: number, cy: number) => {
    const count = view.sides[seat].bowls[d - 1];
    const ripe = count === d;
    const name = `${seat === 0 ? 'A' : 'B'}${d}`;
    return (
      <g data-bowl={name} class={last.has(name) ? 'last' : undefined}>
        <circle cx={cx} cy={cy} r={BOWL / 2 + 8} class={ripe ? 'bowl ripe' : 'bowl'} />
        {balls(count, cx, cy, colours[seat])}
        <text x={cx} y={cy + 5} class="count">{count}</text>
        <text x={cx} y={seat === top ? cy - 36 : cy + 46} class="label">
          {(seat === 0 ? 'A' : 'B') + d}
        </text>
      </g>
    );
  };
  const store = (seat: number, cx: number, cy: number) => (
    <g data-store={seat === 0 ? 'A' : 'B'}>
      <rect x={cx - 34} y={cy - 48} width={68} height={96} rx={30} class="store" />
      {balls(view.sides[seat].store, cx, cy, colours[seat])}
      <text x={cx} y={cy + 5} class="count">{view.sides[seat].store}</text>
    </g>
  );
  const mover = view.toMove;
  return (
    <div class="bohnduell-board">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={t('board.bohnduell')}>
        {store(top, 50, 90)}
        {[1, 2, 3, 4].map((d) => bowl(top, d, x(d - 1), 90))}
        {[4, 3, 2, 1].map((d, c) => bowl(viewer, d, x(c), 200))}
        {store(viewer, 470, 200)}
        <text x={10} y={20} class="status">
          {`${seatName(top)}: ${t('bohnduell.supply')} ${view.sides[top].supply}`}
        </text>
        <text x={10} y={H - 10} class="status">
          {`${seatName(viewer)}: ${t('bohnduell.supply')} ${view.sides[viewer].supply}`}
        </text>
      </svg>
      {mover !== null && onStep && (
        <div class="actions" role="group" aria-label={t('board.moves')} onKeyDown={moveFocus}>
          {[4, 3, 2, 1].map((d) => (
            <div class="action-column">
              {legal.has(`S${d}`) && (
                <button data-step={`S${d}`} onClick={() => onStep(`S${d}`)}
                  title={t('bohnduell.sowHelp', { d, cost: ballCount(5 - d) })}>
                  {t('bohnduell.sow')} {`S${d}`}
                  {/* On a phone there is no hover: the cost is written (issue 17). */}
                  <small class="cost">{ballCount(5 - d)}</small>
                </button>
              )}
              {legal.has(`H${d}`) && (
                <button data-step={`H${d}`} onClick={() => onStep(`H${d}`)}
                  title={t('bohnduell.harvestHelp', { d })}>
                  {t('bohnduell.harvest')} {`H${d}`}
                </button>
              )}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

// "1 ball", "3 balls" (the tooltip said "(1 balls)").
const ballCount = (n: number) => t(n === 1 ? 'bohnduell.cost1' : 'bohnduell.cost', { n });

// Arrow keys move the focus between the move buttons (Enter or Space presses one).
function moveFocus(e: KeyboardEvent) {
  const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[e.key];
  if (!step) return;
  const group = e.currentTarget as HTMLElement;
  const buttons = [...group.querySelectorAll('button')];
  if (buttons.length === 0) return;
  e.preventDefault();
  const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
  buttons[at < 0 ? 0 : (at + step + buttons.length) % buttons.length].focus();
}
