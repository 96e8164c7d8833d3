import { describe, expect, it } from 'vitest';
import { botChoices, botText, changedOptions, optionValues, seatCount, seatLabels } from '../../src/lobby/games';
import type { GameInfo } from '../../src/lobby/games';
import { hasBoard, moveMarks } from '../../src/boards';

// A game as /api/games describes one (the shape of docs/PROTOCOL.md), with a seat-count option.
const game: GameInfo = {
  name: 'fourway', title: 'Four Way', summary: '', min_seats: 2, max_seats: 4,
  seat_count_option: 'players', seat_order_option: null,
  seats: [
    { count: 2, labels: ['N', 'S'], names: ['North', 'South'] },
    { count: 3, labels: ['N', 'S', 'E'], names: ['North', 'South', 'East'] },
  ],
  options: [
    { name: 'players', type: 'int', default: '2', accepted: 'an integer 2..4', help: '', min: 2, max: 4 },
    { name: 'fast', type: 'bool', default: 'no', accepted: 'no|yes', help: '', choices: ['no', 'yes'] },
    { name: 'handicap', type: 'decimal', default: '0', accepted: '', help: '', min: -1, max: 1, step: 0.5 },
    { name: 'cap', type: 'int', default: '0', accepted: '', help: '', min: 0, max: 100000 },
  ],
  presets: [],
  bots: [{ seats: 3, levels: [1, 2, 3, 4, 5].map((level) => ({ level, search: 'mcts', budget: level * 10,
    description: `MCTS, ${level * 10} playouts` })) }],
  builtin_players: ['classic'],
};

describe('games as /api/games describes them', () => {
  it('counts seats from the seat-count option', () => {
    expect(seatCount(game)).toBe(2);
    expect(seatCount(game, { players: '3' })).toBe(3);
    expect(seatCount(game, { players: '9' })).toBe(2); // out of range: the default
    expect(seatCount({ ...game, seat_count_option: null, min_seats: 2 }, { players: '3' })).toBe(2);
  });

  it('labels the seats of each seat count', () => {
    expect(seatLabels(game, 3)).toEqual(['N', 'S', 'E']);
    expect(seatLabels(game, 4)).toEqual([]);
    expect(seatLabels(undefined, 2)).toEqual([]);
  });

  it('sends only the options that differ from their defaults, in schema order', () => {
    expect(changedOptions(game, {})).toEqual([]);
    expect(changedOptions(game, { fast: 'yes', players: '3', handicap: '0' }))
      .toEqual(['players=3', 'fast=yes']);
  });

  it('lists the values of short ranges and of choices', () => {
    expect(optionValues(game.options[0])).toEqual(['2', '3', '4']);
    expect(optionValues(game.options[1])).toEqual(['no', 'yes']);
    expect(optionValues(game.options[2])).toEqual(['-1', '-0.5', '0', '0.5', '1']);
    expect(optionValues(game.options[3])).toEqual([]); // a number field instead
  });

  it('offers random, the ladder of the seat count and the game\'s own players as bots', () => {
    const three = botChoices(game, 3);
    expect(three.map((b) => b.bot)).toEqual(['random', '1', '2', '3', '4', '5', 'classic']);
    expect(three[2].about).toBe('MCTS, 20 playouts');
    expect(three.map(botText)).toEqual(['Computer, random moves', 'Computer, level 1',
      'Computer, level 2', 'Computer, level 3', 'Computer, level 4', 'Computer, level 5',
      'Computer, classic']);
    expect(botChoices(game, 2)[1].about).toBe(''); // no ladder given for 2 seats
    expect(botChoices(undefined, 2).map((b) => b.bot)).toEqual(['random', '1', '2', '3', '4', '5']);
  });

  it('draws only the games it has a board for', () => {
    expect(hasBoard('fourway')).toBe(false);
    expect(hasBoard('toString')).toBe(false);
    expect(moveMarks('fourway', 'a1', 'N')).toEqual([]);
  });
});
