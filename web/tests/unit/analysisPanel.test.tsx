// The analysis panel against a stand-in connection: what it asks the server, and what it shows
// of the answer (the bar turned to the viewer, the line as buttons that show their positions).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { AnalysisPanel } from '../../src/analysis/AnalysisPanel';
import type { LineMove } from '../../src/analysis/analysis';
import type { Session } from '../../src/state/session';

function answer(ply: number, bar: number) {
  return {
    type: 'analysis', game: 'phutball', board: 101, ply, level: '3', seat: ply % 2 ? 'X' : 'O',
    best: 'H2-H0', exact: true, nodes: 0, ms: 0, score: (bar + 1) / 2, unit: 'expected return', bar,
    line: [{ ply: ply + 1, seat: ply % 2 ? 'X' : 'O', move: 'H2-H0', position: `after ${ply}` }],
  };
}

function setup(ply: number) {
  const asked: string[] = [];
  const session = {
    connection: {
      request: (line: string) => {
        asked.push(line);
        const p = Number(/#(\d+)/.exec(line)![1]);
        return Promise.resolve(answer(p, p === 3 ? 1 : -0.5));
      },
    },
  } as unknown as Session;
  const previews: (LineMove | undefined)[] = [];
  const root = document.createElement('div');
  document.body.appendChild(root);
  const draw = (n: number) => render(
    <AnalysisPanel session={session} game="phutball" board={101} ply={n} labels={['O', 'X']}
      viewer="O" onPreview={(m) => previews.push(m)} />, root);
  draw(ply);
  return { asked, previews, root, draw };
}

const flush = () => act(async () => { await Promise.resolve(); await Promise.resolve(); });

afterEach(() => {
  document.body.innerHTML = '';
  vi.useRealTimers();
});

describe('AnalysisPanel', () => {
  it('analyses the position shown and turns the bar to the viewer', async () => {
    const { asked, previews, root } = setup(3);
    expect(root.querySelector('section.analysis')!.getAttribute('data-state')).toBe('off');
    await act(() => (root.querySelector('[data-action=analyse]') as HTMLButtonElement).click());
    await flush();
    expect(asked).toEqual(['phutball analyse 101#3 3']);
    const bar = root.querySelector('.eval-bar')!;
    // X wins for sure: from Ohs' side, a sure loss.
    expect([bar.getAttribute('aria-valuenow'), bar.getAttribute('aria-label'),
      (bar.querySelector('.eval-fill') as HTMLElement).style.width]).toEqual(['-1', 'Evaluation for O', '0%']);
    const line = [...root.querySelectorAll('.analysis-line button')];
    expect(line.map((b) => b.textContent)).toEqual(['X: H2-H0']);
    await act(() => (line[0] as HTMLButtonElement).click());
    expect(previews.at(-1)).toEqual({ ply: 4, seat: 'X', move: 'H2-H0', position: 'after 3' });
  });

  it('asks again when the position changes (the A key turns it on)', async () => {
    vi.useFakeTimers();
    const { asked, root, draw } = setup(2);
    await act(() => { window.dispatchEvent(new KeyboardEvent('keydown', { key: 'a' })); });
    await flush();
    expect(asked).toEqual(['phutball analyse 101#2 3']);
    expect(root.querySelector('.eval-bar')!.getAttribute('aria-valuenow')).toBe('-0.5');
    await act(() => draw(3));
    await act(() => { vi.advanceTimersByTime(300); });
    await flush();
    expect(asked).toEqual(['phutball analyse 101#2 3', 'phutball analyse 101#3 3']);
    expect(root.querySelector('.eval-bar')!.getAttribute('aria-valuenow')).toBe('-1');
  });
});
