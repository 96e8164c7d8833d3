import { describe, expect, it } from 'vitest';
import { describeMove, stepHint, wantsLookahead } from '../../src/boards/describe';

const START = '##..O..##/#..OOO..#/..OOOOO../.OOOOOOO./....*..../.BBBBBBB./..BBBBB../#..BBB..#/##..B..## O 2';

describe('what the table says', () => {
  it('tells what a Biloba click chooses', () => {
    expect(stepHint('biloba', [], ['c6', 'd6'], START)).toEqual({ key: 'hint.biloba.select' });
    expect(stepHint('biloba', ['d6'], ['d5', 'e5'], START))
      .toEqual({ key: 'hint.biloba.destination', params: { from: 'd6' } });
    expect(stepHint('biloba', ['d6', 'e5'], ['f5', 'f4'], START)).toEqual({ key: 'hint.biloba.centre' });
    // After the move: own pawns offered refill, then the emptied squares they may refill.
    expect(stepHint('biloba', ['d6', 'd5'], ['c6'], START)).toEqual({ key: 'hint.biloba.refillFrom' });
    expect(stepHint('biloba', ['d6', 'd5', 'c6'], ['c5'], START))
      .toEqual({ key: 'hint.biloba.refillTo', params: { from: 'c6' } });
    expect(stepHint('biloba', [], [], START)).toBeUndefined();
    // The steps after each refilling pawn all lead to one square: it is named.
    expect(stepHint('biloba', ['d6', 'd5'], ['c6', 'e6'], START, ['d5']))
      .toEqual({ key: 'hint.biloba.refillSquare', params: { square: 'd5' } });
    expect(stepHint('biloba', ['d6', 'd5'], ['c6', 'e6'], START, ['c5', 'd5']))
      .toEqual({ key: 'hint.biloba.refillFrom' });
    expect(wantsLookahead('biloba', ['d6', 'd5'], ['c6', 'e6'], START)).toBe(true);
    expect(wantsLookahead('biloba', [], ['c6', 'd6'], START)).toBe(false);
    expect(stepHint('phutball', ['H10'], ['H12'], 'ball=H10 men=H11 turn=O ply=1'))
      .toEqual({ key: 'hint.phutball.jump', params: { from: 'H10' } });
  });

  it('tells steals, captures and eliminations', () => {
    // A sows S1 into an empty bowl 1 facing B's bowl 4 (3 balls): stolen into A's store.
    expect(describeMove('bohnduell', 'S1', 'A', 'A[0 1 1 1] s8 S0 · B[0 0 0 3] s11 S1 · A to move',
      'A[1 1 1 1] s7 S3 · B[0 0 0 0] s11 S1 · B to move', ['ann', 'bob'], ['A', 'B']))
      .toEqual([{ key: 'said.sow', params: { who: 'ann', bowl: '1' } },
        { key: 'said.steal', params: { who: 'ann', n: 3 } }]);
    expect(describeMove('bohnduell', 'H2', 'B', 'A[0 1 1 1] s8 S0 · B[0 2 0 3] s11 S1 · B to move',
      'A[0 1 1 1] s8 S0 · B[1 0 0 3] s11 S2 · A to move', ['ann', 'bob'], ['A', 'B']))
      .toEqual([{ key: 'said.harvest', params: { who: 'bob', bowl: '2' } }]);
    const before = '##..O..##/#..OOO..#/..OOOOO../.OOOOOOO./....*..../.BBBBBBB./..BBBBB../#..BBB..#/##..B..## O 2';
    const twoTaken = '##..O..##/#..OOO..#/..OOOOO../.OOOOOOO./....*..../...BBBBB./..BBBBB../#..BBB..#/##..B..## B 2';
    expect(describeMove('biloba', 'x/c4-d4', 'O', before, twoTaken, ['ann', 'bob'], ['O', 'B']))
      .toEqual([{ key: 'said.forcedTake', params: { seat: 'O' } },
        { key: 'said.captured', params: { who: 'bob', n: 2 } }]);
    const blueGone = '##..O..##/#..OOO..#/..OOOOO../.OOOOOOO./....*..../........./........./#.......#/##.....## O 2';
    expect(describeMove('biloba', 'd6-d5', 'O', before, blueGone, ['ann', 'bob'], ['O', 'B']))
      .toEqual([{ key: 'said.out', params: { who: 'bob' } }]);
  });
});
