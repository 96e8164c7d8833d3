import { describe, expect, it } from 'vitest';
import { analyseCommand, barPercent, readAnalysis, viewerBar } from '../../src/analysis/analysis';
import { ANALYSIS_STRINGS } from '../../src/analysis/strings';

// The server's answer on Phutball with a win in one for Eks (tests/integration/analyse_test.py).
const WIN = {
  type: 'analysis', game: 'phutball', board: 101, ply: 3, level: '3', seat: 'X', best: 'H2-H0',
  exact: true, nodes: 0, ms: 1, score: 1, unit: 'expected return', bar: 1, line_text: '4. H2-H0',
  line: [{ ply: 4, seat: 'X', move: 'H2-H0', position: 'after' }], re: 7,
};

describe('analysis', () => {
  it('asks for a ply at a level', () => {
    expect(analyseCommand('phutball', 101, 3, '5')).toBe('phutball analyse 101#3 5');
  });

  it('reads the analysis event', () => {
    expect(readAnalysis(WIN)).toEqual({
      game: 'phutball', board: 101, ply: 3, level: '3', seat: 'X', score: 1, bar: 1, exact: true,
      best: 'H2-H0', line: [{ ply: 4, seat: 'X', move: 'H2-H0', position: 'after' }], nodes: 0, ms: 1,
    });
    expect(readAnalysis({ ...WIN, score: null, unit: '', bar: 0 }).score).toBeNull();
    // BohnDuell's solver gives its own value too.
    expect(readAnalysis({ ...WIN, exact_value: -2 }).exactValue).toBe(-2);
  });

  it('turns the bar to the viewer in a two-seat game', () => {
    const a = readAnalysis({ ...WIN, score: 0.095, bar: -0.81 });
    expect(viewerBar(a, ['O', 'X'], 'X')).toEqual({ value: -0.81, seat: 'X' });
    expect(viewerBar(a, ['O', 'X'], 'O')).toEqual({ value: 0.81, seat: 'O' });
    expect(viewerBar(a, ['O', 'X'])).toEqual({ value: -0.81, seat: 'X' });
    // Three seats and more: the side to move's view.
    expect(viewerBar({ ...a, seat: 'B' }, ['O', 'B', 'R'], 'O')).toEqual({ value: -0.81, seat: 'B' });
    expect(viewerBar({ ...a, score: null }, ['O', 'X'], 'O')).toEqual({ value: 0, seat: 'O' });
  });

  it('fills the bar from a sure loss to a sure win', () => {
    expect([-1, -0.81, 0, 0.5, 1, 2].map(barPercent)).toEqual([0, 9.5, 50, 75, 100, 100]);
  });

  it('says everything in French that it says in English, with the same placeholders', () => {
    const { en, fr } = ANALYSIS_STRINGS;
    expect(Object.keys(fr).sort()).toEqual(Object.keys(en).sort());
    const names = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const [key, text] of Object.entries(en)) expect([key, names(fr[key])]).toEqual([key, names(text)]);
  });
});
