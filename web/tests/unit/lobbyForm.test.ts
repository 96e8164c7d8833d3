// The new-table form's rules (lobby/games.ts, lobby/NewTable.tsx): values refused in the
// server's own words, presets filling the form, who sits where.
import { describe, expect, it } from 'vitest';
import { currentPreset, optionError, optionValues, optionsError, presetValues, seatNames } from '../../src/lobby/games';
import type { GameInfo, GameOption } from '../../src/lobby/games';
import { occupants, withOccupant } from '../../src/lobby/NewTable';

// Options as /api/games gives them (their `accepted` texts are the server's).
const supply: GameOption = { name: 'supply', type: 'int', default: '20', accepted: 'an integer 1..63',
  help: 'starting supply N per player', min: 1, max: 63 };
const handicap: GameOption = { name: 'handicap', type: 'decimal', default: '0',
  accepted: 'a multiple of 0.5 from -8.5 to 8.5', help: '', min: -8.5, max: 8.5, step: 0.5 };
const own: GameOption = { name: 'own_goal', type: 'enum', default: 'lose', accepted: 'lose|illegal',
  help: '', choices: ['lose', 'illegal'] };
const corner: GameOption = { name: 'corner_exit', type: 'bool', default: 'off', accepted: 'off|on',
  help: '', choices: ['off', 'on'] };
const players: GameOption = { name: 'players', type: 'int', default: '2', accepted: 'an integer 2..4',
  help: '', min: 2, max: 4 };

const game: GameInfo = {
  name: 'g', title: 'G', summary: '', min_seats: 2, max_seats: 4, seat_count_option: 'players',
  seat_order_option: null,
  seats: [{ count: 3, labels: ['O', 'B', 'R'], names: ['Orange', 'Blue', 'Red'] }],
  options: [players, handicap, own, corner],
  presets: [{ name: 'plain', help: '', values: {} },
    { name: 'ways', help: '', values: { own_goal: 'illegal', corner_exit: 'on' } }],
  bots: [], builtin_players: [],
};

describe('option values', () => {
  it('are refused in the server\'s words', () => {
    // The server: "error: bad value '999' for option supply: expected an integer 1..63".
    expect(optionError(supply, '999')).toBe("bad value '999' for option supply: expected an integer 1..63");
    expect(optionError(supply, '0')).toBe("bad value '0' for option supply: expected an integer 1..63");
    expect(optionError(supply, 'abc')).toBe("bad value 'abc' for option supply: expected an integer 1..63");
    expect(optionError(supply, '2.5')).toBe("bad value '2.5' for option supply: expected an integer 1..63");
    expect(optionError(supply, '')).toBe("bad value '' for option supply: expected an integer 1..63");
    expect(optionError(handicap, '0.3')).toBe(
      "bad value '0.3' for option handicap: expected a multiple of 0.5 from -8.5 to 8.5");
    expect(optionError(handicap, '9')).not.toBe('');
    expect(optionError(own, 'win')).toBe("bad value 'win' for option own_goal: expected lose|illegal");
  });

  it('are accepted within the schema', () => {
    for (const v of ['1', '63', '12', ' 7 ']) expect(optionError(supply, v)).toBe('');
    for (const v of ['-8.5', '8.5', '1.5', '-2', '0']) expect(optionError(handicap, v)).toBe('');
    expect(optionError(corner, 'on')).toBe('');
    expect(optionError(own, 'illegal')).toBe('');
  });

  it('names the first refused option of a form, defaults left aside', () => {
    expect(optionsError(game, {})).toBe('');
    expect(optionsError(game, { handicap: '1', own_goal: 'x', corner_exit: 'y' })).toBe(
      "bad value 'x' for option own_goal: expected lose|illegal");
  });

  it('offer lists for short ranges, number fields for long ones', () => {
    expect(optionValues(players)).toEqual(['2', '3', '4']);
    expect(optionValues(supply)).toEqual([]);
    expect(optionValues(handicap)).toEqual([]);
  });
});

describe('presets', () => {
  it('fill the form in one click, keeping the number of players', () => {
    expect(presetValues(game, 'ways', { players: '3', handicap: '2' }))
      .toEqual({ own_goal: 'illegal', corner_exit: 'on', players: '3' });
    expect(presetValues(game, 'plain', { own_goal: 'illegal' })).toEqual({});
  });

  it('are recognised in the values a form holds', () => {
    expect(currentPreset(game, {})).toBe('plain');
    expect(currentPreset(game, { players: '4' })).toBe('plain');
    expect(currentPreset(game, { own_goal: 'illegal', corner_exit: 'on' })).toBe('ways');
    expect(currentPreset(game, { own_goal: 'illegal' })).toBe('');
  });
});

describe('seats', () => {
  it('seat the player first and the computer in the others by default', () => {
    expect(occupants([], 3, 'cpu:3')).toEqual(['me', 'cpu:3', 'cpu:3']);
    expect(occupants(['human', 'me'], 3, 'cpu:3')).toEqual(['human', 'me', 'cpu:3']);
    // Four players down to two: the player, who sat fourth, moves to the first seat.
    expect(occupants(['cpu:1', 'cpu:2', 'human', 'me'], 2, 'cpu:3')).toEqual(['me', 'cpu:2']);
    expect(occupants(['human', 'cpu:2', 'human', 'cpu:1'], 2, 'cpu:3')).toEqual(['human', 'cpu:2']);
  });

  it('give the player one seat only', () => {
    expect(withOccupant(['me', 'cpu:3', 'cpu:3'], 2, 'me')).toEqual(['human', 'cpu:3', 'me']);
    expect(withOccupant(['me', 'cpu:3', 'cpu:3'], 1, 'cpu:classic')).toEqual(['me', 'cpu:classic', 'cpu:3']);
    expect(withOccupant(['me', 'cpu:3'], 0, 'human')).toEqual(['human', 'cpu:3']);
  });

  it('are named by colour where the game has names', () => {
    expect(seatNames(game, 3)).toEqual(['Orange', 'Blue', 'Red']);
    expect(seatNames(game, 4)).toEqual([]);
  });
});
