import { describe, expect, it } from 'vitest';
import { newTurns, titleWith, turnKeys, yourGames } from '../../src/state/yourGames';
import type { TableListing } from '../../src/lobby/listing';

const seat = (name: string, kind = 'user') => ({ kind, name });
const ITEMS: TableListing[] = [
  { game: 'phutball', board: 102, status: 'playing', ply: 4, seats: [seat('ann'), seat('bob')], next_user: 'bob' },
  { game: 'bohnduell', board: 101, status: 'playing', seats: [seat('ann'), seat('3', 'cpu')], next_user: '' },
  { game: 'biloba', board: 101, status: 'playing', ply: 9, seats: [seat('cid'), seat('ann')], next_user: 'ann' },
  { game: 'phutball', board: 101, status: 'over', seats: [seat('ann'), seat('bob')], next_user: '' },
  { game: 'phutball', board: 103, status: 'setup', seats: [seat('ann'), seat('', '')], next_user: '' },
  { game: 'phutball', board: 104, status: 'playing', ply: 2, seats: [seat('bob'), seat('cid')], next_user: 'bob' },
];

describe('your games', () => {
  it('lists the running games you sit at, your turn first', () => {
    expect(yourGames(ITEMS, 'ann').map((g) => [g.game, g.board, g.ply, g.myTurn, g.nextUser])).toEqual([
      ['biloba', 101, 9, true, 'ann'],
      ['bohnduell', 101, 0, false, ''],
      ['phutball', 102, 4, false, 'bob'],
    ]);
    expect(yourGames(ITEMS, 'dan')).toEqual([]);
  });

  it('tells the games that just became your turn, not the first time nor the one shown', () => {
    const first = turnKeys(yourGames(ITEMS, 'bob'));
    expect([...first]).toEqual(['phutball/102#4', 'phutball/104#2']);
    expect(newTurns(undefined, first)).toEqual([]);
    const later = new Set(['phutball/102#4', 'phutball/104#2', 'biloba/105#7']);
    expect(newTurns(first, later)).toEqual(['biloba/105']);
    expect(newTurns(first, later, 'biloba/105')).toEqual([]);
    // Our turn again at a later ply (the answer came before any listing saw the other's turn).
    expect(newTurns(first, new Set(['phutball/102#6', 'phutball/104#2']))).toEqual(['phutball/102']);
  });

  it('counts them in the title', () => {
    expect(titleWith(0, 'Plateau')).toBe('Plateau');
    expect(titleWith(2, 'Plateau')).toBe('(2) Plateau');
  });
});
