// Keyboard play on a board: a cursor that only ever stands on a legal target. Arrow keys move
// it to the nearest target in that direction, Enter or Space clicks it. Boards draw the cursor
// (class "cursor") while they have the focus.
import { useState } from 'preact/hooks';

export interface Target {
  name: string; // the step text clicked
  x: number; // centre in the board's drawing units
  y: number;
}

const DIRECTIONS: Record<string, [number, number]> = {
  ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1],
};

// The target reached from `from` by one press towards `dir`: among the targets ahead, the one
// with the least distance along the direction plus twice the distance across it.
export function nextTarget(from: Target, targets: Target[], dir: [number, number]): Target | undefined {
  let best: Target | undefined;
  let bestScore = Infinity;
  for (const t of targets) {
    const dx = t.x - from.x;
    const dy = t.y - from.y;
    const along = dx * dir[0] + dy * dir[1];
    if (along <= 0) continue;
    const across = Math.abs(dx * dir[1] - dy * dir[0]);
    const score = along + 2 * across;
    if (score < bestScore) {
      best = t;
      bestScore = score;
    }
  }
  return best;
}

function nearest(targets: Target[], anchor?: { x: number; y: number }): Target | undefined {
  if (!anchor) return targets[0];
  let best: Target | undefined;
  let bestDistance = Infinity;
  for (const t of targets) {
    const d = (t.x - anchor.x) ** 2 + (t.y - anchor.y) ** 2;
    if (d < bestDistance) {
      best = t;
      bestDistance = d;
    }
  }
  return best;
}

// `anchor`: where the cursor starts when it is not on a target (the ball, the last square).
export function useCursor(targets: Target[], onStep?: (step: string) => void,
  anchor?: { x: number; y: number }) {
  const [cursor, setCursor] = useState<string | undefined>();
  const current = targets.find((t) => t.name === cursor) ?? nearest(targets, anchor);
  const onKeyDown = (e: KeyboardEvent) => {
    if (!current || !onStep) return;
    const dir = DIRECTIONS[e.key];
    if (dir) {
      e.preventDefault();
      const next = nextTarget(current, targets, dir);
      if (next) setCursor(next.name);
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      onStep(current.name);
    }
  };
  return { cursor: onStep ? current?.name : undefined, onKeyDown };
}
