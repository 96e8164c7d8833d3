import { describe, expect, it } from 'vitest';
import { listingLinks, seatLongName, seatName } from '../../src/lobby/listing';
import { Session } from '../../src/state/session';
import { recordMoves, recordSeats } from '../../src/table/record';
import type { Connection, ServerEvent } from '../../src/net/connection';

describe('the lobby list', () => {
  it('names every kind of seat', () => {
    expect(seatName({ kind: 'user', name: 'alice' })).toBe('alice');
    expect(seatName({ kind: 'cpu', name: '3' })).toBe('Computer, level 3');
    expect(seatName({ kind: 'cpu', name: 'classic' })).toBe('Computer, classic');
    expect(seatName({ kind: '', name: '' })).toBe('free');
    expect(seatName({ kind: 'free', name: '' })).toBe('free');
    // Players of a finished biloba 0.9.3 network game imported into the lobby.
    expect(seatName({ kind: 'legacy', name: 'Zoé' })).toBe('Zoé (Biloba 0.9.3)');
    expect(seatLongName({ kind: 'legacy', name: 'Zoé', label: 'O' })).toBe('Zoé (Biloba 0.9.3)');
    expect(seatLongName({ kind: 'cpu', name: 'random' })).toBe('Computer, random moves');
  });

  it('offers replay for finished games, legacy ones included', () => {
    const legacy = { game: 'biloba', board: 101, status: 'over', ply: 57,
      seats: [{ kind: 'legacy', name: 'ann' }, { kind: 'legacy', name: 'ben' }], options: '' };
    expect(listingLinks(legacy)).toEqual({ replay: true });
    expect(legacy.seats.map(seatName)).toEqual(['ann (Biloba 0.9.3)', 'ben (Biloba 0.9.3)']);
    const open = { game: 'bohnduell', board: 102, status: 'setup',
      seats: [{ kind: 'user', name: 'ann' }, { kind: '', name: '' }] };
    expect(listingLinks(open)).toEqual({ action: 'lobby.sitDown', replay: false });
    expect(listingLinks({ ...open, seats: [open.seats[0], { kind: 'cpu', name: '1' }] }))
      .toEqual({ action: 'lobby.watch', replay: false });
    expect(listingLinks({ ...open, status: 'playing' })).toEqual({ action: 'lobby.watch', replay: false });
    expect(listingLinks({ ...open, status: 'declined' })).toEqual({ replay: false });
    // Your own table, open or playing: back to it (not "watch" or "sit down").
    expect(listingLinks(open, 'ann')).toEqual({ action: 'lobby.backToGame', replay: false });
    expect(listingLinks({ ...open, status: 'playing' }, 'ann'))
      .toEqual({ action: 'lobby.backToGame', replay: false });
    expect(listingLinks({ ...open, status: 'playing' }, 'bob')).toEqual({ action: 'lobby.watch', replay: false });
    expect(listingLinks({ ...open, status: 'over' }, 'ann')).toEqual({ replay: true });
  });
});

describe('the replay of an imported biloba 0.9.3 game', () => {
  it('names its players from the record', () => {
    const record = '[Game "biloba"]\n[Seats "Ann,Bob"]\n[Result "1-0"]\n\n1. O:e3-e4 B:e7-e6 1-0\n';
    expect(recordSeats(record)).toEqual(['Ann', 'Bob']);
    expect(recordMoves(record)).toEqual([{ seat: 'O', text: 'e3-e4' }, { seat: 'B', text: 'e7-e6' }]);
    expect(recordSeats('[Game "biloba"]\n\n*\n')).toEqual([]);
  });
});

// A connection that only records listeners, so that tests can play server events.
function fakeSession(): { session: Session; emit: (e: ServerEvent) => void } {
  const listeners: ((e: ServerEvent) => void)[] = [];
  const connection = { listen: (l: (e: ServerEvent) => void) => { listeners.push(l); return () => {}; } };
  const session = new Session(connection as unknown as Connection);
  return { session, emit: (e) => listeners.forEach((l) => l(e)) };
}

describe('challenge notices', () => {
  const seats = [
    { seat: 1, label: 'A', kind: 'user', name: 'alice' },
    { seat: 2, label: 'B', kind: 'user', name: 'bob' },
  ];
  const challenge = { type: 'challenge', game: 'bohnduell', board: 103, status: 'playing', seats };

  it('tell the challenged player, once, until dismissed', () => {
    const { session, emit } = fakeSession();
    emit({ type: 'login', user: 'bob', guest: true });
    emit(challenge);
    emit(challenge);
    expect(session.state.challenges).toEqual([
      { game: 'bohnduell', board: 103, players: ['alice', 'bob'] }]);
    expect(session.table('bohnduell', 103).status).toBe('playing');
    session.dismissChallenge('bohnduell', 103);
    expect(session.state.challenges).toEqual([]);
  });

  it('are not news to the challenger nor to others', () => {
    const { session, emit } = fakeSession();
    emit({ type: 'login', user: 'alice', guest: false });
    emit({ ...challenge, re: 4 }); // the answer to alice's own command
    emit({ ...challenge, board: 104, seats: [seats[1], { seat: 2, label: 'B', kind: 'cpu', name: 'alice' }] });
    expect(session.state.challenges).toEqual([]);
  });
});
