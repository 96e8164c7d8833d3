import { describe, expect, it } from 'vitest';
import { newTurns, titleWith, turnKeys, yourGames } from '../../src/state/yourGames';
import type { TableListing } from '../../src/lobby/listing';

const seat = (name: string, kind = 'user') => ({ kind, name });
const ITEMS: TableListing[] = [
  { game: 'phutball', board: 102, status: 'playing', seats: [seat('ann'), seat('bob')], next_user: 'bob' },
  { game: 'bohnduell', board: 101, status: 'playing', seats: [seat('ann'), seat('3', 'cpu')], next_user: '' },
  { game: 'biloba', board: 101, status: 'playing', seats: [seat('cid'), seat('ann')], next_user: 'ann' },
  { game: 'phutball', board: 101, status: 'over', seats: [seat('ann'), seat('bob')], next_user: '' },
  { game: 'phutball', board: 103, status: 'setup', seats: [seat('ann'), seat('', '')], next_user: '' },
  { game: 'phutball', board: 104, status: 'playing', seats: [seat('bob'), seat('cid')], next_user: 'bob' },
];

describe('your games', () => {
  it('lists the running games you sit at, your turn first', () => {
    expect(yourGames(ITEMS, 'ann').map((g) => [g.game, g.board, g.myTurn, g.nextUser])).toEqual([
      ['biloba', 101, true, 'ann'],
      ['bohnduell', 101, false, ''],
      ['phutball', 102, false, 'bob'],
    ]);
    expect(yourGames(ITEMS, 'dan')).toEqual([]);
  });

  it('tells the games that just became your turn, not the first time nor the one shown', () => {
    const first = turnKeys(yourGames(ITEMS, 'bob'));
    expect([...first]).toEqual(['phutball/102', 'phutball/104']);
    expect(newTurns(undefined, first)).toEqual([]);
    const later = new Set(['phutball/102', 'phutball/104', 'biloba/105']);
    expect(newTurns(new Set(['phutball/102']), later)).toEqual(['phutball/104', 'biloba/105']);
    expect(newTurns(new Set(['phutball/102']), later, 'biloba/105')).toEqual(['phutball/104']);
  });

  it('counts them in the title', () => {
    expect(titleWith(0, 'Plateau')).toBe('Plateau');
    expect(titleWith(2, 'Plateau')).toBe('(2) Plateau');
  });
});
