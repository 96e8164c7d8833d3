import { describe, expect, it } from 'vitest';
import { parseBohnDuell } from '../../src/boards/bohnduell/view';
import { parsePhutball, pointName } from '../../src/boards/phutball/view';
import { parseBiloba, squareName } from '../../src/boards/biloba/view';

describe('position strings', () => {
  it('reads a BohnDuell position', () => {
    const v = parseBohnDuell('A[0 1 1 1] s8 S0 · B[0 0 0 1] s11 S1 · A to move');
    expect(v.sides[0]).toEqual({ bowls: [0, 1, 1, 1], supply: 8, store: 0 });
    expect(v.sides[1]).toEqual({ bowls: [0, 0, 0, 1], supply: 11, store: 1 });
    expect(v.toMove).toBe(0);
    expect(parseBohnDuell('A[0 0 0 0] s0 S1 · B[0 1 1 1] s0 S2 · over').toMove).toBeNull();
  });

  it('reads a Phutball position', () => {
    const v = parsePhutball('ball=H10 men=H11,J12 turn=X ply=2');
    expect(pointName(v.ball)).toBe('H10');
    expect(v.men.map(pointName)).toEqual(['H11', 'J12']);
    expect(v.toMove).toBe(1);
    expect(v.ply).toBe(2);
    expect(parsePhutball('ball=H10 men= turn=O ply=0').men).toEqual([]);
  });

  it('reads a Biloba position', () => {
    const v = parseBiloba('##..O..##/#..OOO..#/..OOOOO../.OOOOOOO./....*..../.BBBBBBB./..BBBBB../#..BBB..#/##..B..## O 2');
    expect(v.cells[0][4]).toBe('O');
    expect(v.cells[4][4]).toBe('*');
    expect(v.cells[8][4]).toBe('B');
    expect(v.players).toBe(2);
    expect(squareName(4, 4)).toBe('e5');
    expect(squareName(0, 8)).toBe('a1');
  });
});
