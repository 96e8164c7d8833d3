import { describe, expect, it } from 'vitest';
import { moveMarks } from '../../src/boards';
import { nextTarget } from '../../src/boards/cursor';
import { formatClock, leftNow } from '../../src/table/Clocks';

describe('last-move marks', () => {
  it('marks the bowl of a BohnDuell move for the seat that made it', () => {
    expect(moveMarks('bohnduell', 'S3', 'A')).toEqual(['A3']);
    expect(moveMarks('bohnduell', 'H1', 'B')).toEqual(['B1']);
    expect(moveMarks('bohnduell', 'pass', 'B')).toEqual([]);
  });

  it('marks a Phutball placement and every point of a jump path', () => {
    expect(moveMarks('phutball', 'H11', 'O')).toEqual(['H11']);
    expect(moveMarks('phutball', 'h10-h13-L10', 'X')).toEqual(['H10', 'H13', 'L10']);
    expect(moveMarks('phutball', 'H18-H20', 'O')).toEqual(['H18', 'H20']);
  });

  it('marks every square of a Biloba turn token, refills included', () => {
    expect(moveMarks('biloba', 'd6-e5-f5/c4-d4', 'O')).toEqual(['d6', 'e5', 'f5', 'c4', 'd4']);
    expect(moveMarks('biloba', 'x/d3-e3', 'B')).toEqual(['d3', 'e3']);
    expect(moveMarks('biloba', 'out', 'R')).toEqual([]);
  });
});

describe('keyboard cursor', () => {
  const grid = ['a1', 'b1', 'c1', 'a2', 'c2', 'b3'].map((name) => ({
    name, x: 'abc'.indexOf(name[0]), y: -Number(name[1]),
  }));
  const at = (name: string) => grid.find((t) => t.name === name)!;

  it('moves to the nearest target ahead, preferring the straight line', () => {
    expect(nextTarget(at('a1'), grid, [1, 0])?.name).toBe('b1');
    expect(nextTarget(at('b1'), grid, [1, 0])?.name).toBe('c1');
    expect(nextTarget(at('a1'), grid, [0, -1])?.name).toBe('a2'); // up: y decreases
    expect(nextTarget(at('a2'), grid, [1, 0])?.name).toBe('c2'); // skips the missing b2
  });

  it('stays put when nothing is ahead', () => {
    expect(nextTarget(at('c1'), grid, [1, 0])).toBeUndefined();
    expect(nextTarget(at('b3'), grid, [0, -1])).toBeUndefined();
  });
});

describe('clocks', () => {
  it('formats minutes and seconds, hours when needed, rounding up', () => {
    expect(formatClock(300000)).toBe('5:00');
    expect(formatClock(59001)).toBe('1:00');
    expect(formatClock(9000)).toBe('0:09');
    expect(formatClock(3723000)).toBe('1:02:03');
    expect(formatClock(-5)).toBe('0:00');
  });

  it('counts down only the running clock, never below zero', () => {
    const running = { label: 'A', user: 'ann', leftMs: 10000, running: true, receivedAt: 1000 };
    expect(leftNow(running, 4000)).toBe(7000);
    expect(leftNow(running, 20000)).toBe(0);
    expect(leftNow({ ...running, running: false }, 4000)).toBe(10000);
  });
});
