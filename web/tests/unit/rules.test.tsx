// The rules pages (rules/pages.tsx, rules/diagrams.json): every page of every game has a
// diagram, every diagram names a record of its game and a ply within it, and its position is
// one the game's board reads. (That the positions are the engine's: web_rules_diagrams.)
import { describe, expect, it } from 'vitest';
import { render } from 'preact';
import { RECORDS, RULES } from '../../src/rules/pages';
import { Diagram } from '../../src/rules/Diagram';
import { hasBoard } from '../../src/boards';

describe('rules pages', () => {
  it('have six Biloba pages, as biloba 0.9.3\'s help, and four for the others', () => {
    expect(Object.fromEntries(Object.entries(RULES).map(([g, pages]) => [g, pages.length])))
      .toEqual({ bohnduell: 4, phutball: 4, biloba: 6 });
    expect(RULES.biloba.map((p) => p.title.en)).toEqual(['The goal', 'Moving', 'Jumping',
      'Taking and replacing', 'The special tile', 'End of game']);
  });

  it('illustrate every page with positions of a record of their game', () => {
    for (const [game, pages] of Object.entries(RULES)) {
      expect(hasBoard(game)).toBe(true);
      for (const page of pages) {
        expect(page.diagrams.length).toBeGreaterThan(0);
        for (const d of page.diagrams) {
          expect(RECORDS[d.record].game).toBe(game);
          expect(d.plies).toBeGreaterThanOrEqual(0);
          expect(d.plies).toBeLessThanOrEqual(RECORDS[d.record].moves.length);
          expect(d.caption.en && d.caption.fr).toBeTruthy();
        }
      }
    }
  });

  it('draw a diagram with the game\'s board, its targets and its last move', () => {
    const root = document.createElement('div');
    const taking = RULES.biloba[3].diagrams;
    render(<Diagram game="biloba" d={taking[0]} />, root);
    const targets = [...root.querySelectorAll('[data-square]')].filter((g) => g.querySelector('.target'))
      .map((g) => (g as HTMLElement).dataset.square);
    expect(targets).toEqual(['g5', 'i5']);
    expect(root.querySelector('.diagram-board')?.getAttribute('data-prefix')).toBe('g7 i5');
    render(<Diagram game="biloba" d={taking[1]} />, root);
    // The record's 19th entry, O:g7-i5/g5-h5, marked.
    expect(root.querySelector('.diagram-board')?.getAttribute('data-last')).toBe('g7 i5 g5 h5');
    expect(root.querySelector('[data-square=h5] .pawn')?.getAttribute('data-pawn')).toBe('O');
    expect(root.querySelector('figcaption')?.textContent).toBe(
      'After g7-i5/g5-h5: the pawn from g5 took the place of the blue pawn.');
  });
});
