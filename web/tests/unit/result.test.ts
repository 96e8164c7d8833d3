import { describe, expect, it } from 'vitest';
import { endEntries, withPasses } from '../../src/table/record';
import { resultHeadline } from '../../src/table/ResultBanner';
import { boardScore } from '../../src/boards';
import { playerName } from '../../src/lobby/listing';

describe('what the table says of a game', () => {
  it('shows a forced pass where a two-seat game\'s same seat moved twice', () => {
    const moves = [{ seat: 'A', text: 'S4' }, { seat: 'B', text: 'S1' }, { seat: 'B', text: 'S1' },
      { seat: 'A', text: 'H1' }];
    expect(withPasses(moves, ['A', 'B'])).toEqual([moves[0], moves[1],
      { seat: 'A', text: 'pass', pass: true }, moves[2], moves[3]]);
    // Biloba's eliminated seats are skipped, not passing: no pass for three or more seats.
    expect(withPasses(moves, ['O', 'B', 'R'])).toEqual(moves);
  });

  it('ends the move list with a resignation or a loss on time', () => {
    const say = (key: string) => key;
    expect(endEntries({ result: '0-1', reason: 'time' }, ['O', 'X'], say))
      .toEqual([{ seat: 'O', text: 'moves.outOfTime', end: true }]);
    expect(endEntries({ result: '1-0', reason: 'resign' }, ['A', 'B'], say))
      .toEqual([{ seat: 'B', text: 'moves.resigned', end: true }]);
    expect(endEntries({ result: '1-0', reason: 'rules' }, ['A', 'B'], say)).toEqual([]);
    expect(endEntries({ result: '1-0-0', reason: 'resign' }, ['O', 'B', 'R'], say)).toEqual([]);
    expect(endEntries(undefined, ['A', 'B'], say)).toEqual([]);
  });

  it('names the winner, the score and the computer', () => {
    expect(resultHeadline('0-1', ['ann', 'Computer, level 3'])).toBe('Computer, level 3 wins');
    expect(resultHeadline('1/2-1/2', ['ann', 'bob'])).toBe('Draw');
    expect(resultHeadline('1-1-0', ['ann', 'bob', 'cid'])).toBe('ann, bob win');
    expect(resultHeadline('1-0', ['ann', 'bob', 'cid'])).toBe('1-0');
    expect(boardScore('bohnduell', 'A[0 0 0 0] s0 S4 · B[0 0 0 0] s0 S12 · over')).toEqual([4, 12]);
    expect(boardScore('biloba',
      '##..O..##/#..OOO..#/..OOOOO../.OOOOOOO./....*..../.BBBBBBB./..BBBBB../#..BBB..#/##..B..## O 2'))
      .toEqual([16, 16]);
    expect(boardScore('phutball', 'ball=H10 men= turn=O ply=0')).toBeUndefined();
    expect(playerName('cpu:3')).toBe('Computer, level 3');
    expect(playerName('cpu:random')).toBe('Computer, random moves');
    expect(playerName('cpu:classic')).toBe('Computer, classic');
    expect(playerName('ann')).toBe('ann');
  });
});
