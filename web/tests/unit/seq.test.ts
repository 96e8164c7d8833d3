// Issue 13, items 5 and 7 (the browser's half): the seq filter drops duplicates and asks for
// a resync on a gap; the move queue sends again, once, a move whose answer was lost.
import { describe, expect, it } from 'vitest';
import { SeqFilter } from '../../src/state/seq';
import { MoveQueue } from '../../src/net/retry';
import type { ServerEvent } from '../../src/net/connection';

describe('SeqFilter', () => {
  it('starts counting at the first numbered event and applies each seq once, in order', () => {
    const f = new SeqFilter();
    expect(f.accept(undefined)).toBe('apply'); // a reply without seq
    expect(f.accept(7)).toBe('apply');
    expect(f.accept(8)).toBe('apply');
    expect(f.accept(8)).toBe('drop');
    expect(f.accept(3)).toBe('drop');
    expect(f.accept(9)).toBe('apply');
    expect(f.last).toBe(9);
  });

  it('reports a gap once, drops what follows until the replay, then takes the replay in order', () => {
    const f = new SeqFilter();
    f.accept(4);
    expect(f.accept(6)).toBe('gap');
    expect(f.resyncing).toBe(true);
    expect(f.accept(7)).toBe('drop'); // a live event before the replay: the replay brings it
    // The replay of 5..7, then its end.
    expect(f.accept(5)).toBe('apply');
    expect(f.accept(6)).toBe('apply');
    expect(f.accept(7)).toBe('apply');
    expect(f.resynced(7)).toBe(false);
    expect(f.resyncing).toBe(false);
    expect(f.accept(7)).toBe('drop'); // the same event live again (another connection's copy)
    expect(f.accept(8)).toBe('apply');
  });

  it('after a reconnection: live events before the replay are dropped or applied once', () => {
    const f = new SeqFilter();
    f.accept(10);
    f.resyncing = true; // `resync BOARD 10` sent
    expect(f.accept(11)).toBe('apply'); // live, the next one: taken
    expect(f.accept(13)).toBe('drop'); // live, past a gap: the replay brings it
    expect(f.accept(11)).toBe('drop'); // the replay: 11 again
    expect(f.accept(12)).toBe('apply');
    expect(f.accept(13)).toBe('apply');
    expect(f.resynced(13)).toBe(false);
    expect(f.last).toBe(13);
  });

  it('asks again when a replay ends short of the table\'s last seq', () => {
    const f = new SeqFilter();
    f.accept(2);
    f.resyncing = true;
    expect(f.resynced(5)).toBe(true);
    expect(f.resyncing).toBe(true);
  });

  it('takes the last seq of a /watch answer, and resyncs when events above it came first', () => {
    const f = new SeqFilter();
    f.accept(3);
    expect(f.watched(12)).toBe(false); // older events heard before: the state is newer
    expect(f.last).toBe(12);
    expect(f.accept(12)).toBe('drop');
    expect(f.accept(13)).toBe('apply');
    // Events above the state's seq were applied before it: they come again by a resync.
    expect(f.accept(14)).toBe('apply');
    expect(f.watched(13)).toBe(true);
    expect(f.last).toBe(13);
    expect(f.resyncing).toBe(true);
    expect(f.accept(14)).toBe('apply'); // the replay
    expect(f.resynced(14)).toBe(false);
    // A resync already on its way brings them: no second one.
    f.accept(16);
    expect(f.resyncing).toBe(true);
    expect(f.watched(14)).toBe(false);
    expect(f.last).toBe(14);
  });

  it('without a last seq (an older server) the next numbered event starts the count', () => {
    const f = new SeqFilter();
    f.accept(3);
    expect(f.watched(undefined)).toBe(false);
    expect(f.last).toBeUndefined();
    expect(f.accept(20)).toBe('apply');
    expect(f.last).toBe(20);
  });

  it('keeps its count through such an answer while a resync runs; reset forgets everything', () => {
    const f = new SeqFilter();
    f.accept(5);
    f.resyncing = true;
    expect(f.watched(undefined)).toBe(false);
    expect(f.last).toBe(5);
    f.reset();
    expect(f.last).toBeUndefined();
    expect(f.resyncing).toBe(false);
  });
});

// A fake transport: ids from 1, every line kept.
function transport() {
  const sent: { id: number; line: string }[] = [];
  let id = 0;
  const send = (line: string) => {
    sent.push({ id: ++id, line });
    return id;
  };
  return { sent, send };
}

describe('MoveQueue', () => {
  it('resolves a move with its acknowledgement and rejects it with its error', async () => {
    const { sent, send } = transport();
    const q = new MoveQueue(send);
    const played = q.play('phutball move 101 H11#1');
    const refused = q.play('phutball move 101 J12#1');
    expect(sent.map((s) => s.line)).toEqual(['phutball move 101 H11#1', 'phutball move 101 J12#1']);
    q.onEvent({ type: 'move', re: 1, ply: 1, seq: 4 });
    q.onEvent({ type: 'error', re: 2, message: 'move #1 was already played' });
    await expect(played).resolves.toMatchObject({ type: 'move', ply: 1 });
    await expect(refused).rejects.toThrow('already played');
    expect(q.size).toBe(0);
  });

  it('sends a move again on the next connection when the answer was lost, once', async () => {
    const { sent, send } = transport();
    const q = new MoveQueue(send);
    const played = q.play('bohnduell move 102 S4#3');
    q.onEvent({ type: 'disconnected' });
    // The next connection: resume first, then the retry, with the same #n.
    const again = transport();
    again.send('resume TOKEN');
    q.retry(again.send, () => false);
    expect(again.sent.map((s) => s.line)).toEqual(['resume TOKEN', 'bohnduell move 102 S4#3']);
    // The answer to the first copy can never come; the second's is the original one.
    q.onEvent({ type: 'move', re: 1, ply: 3 });
    expect(q.size).toBe(1);
    q.onEvent({ type: 'move', re: 2, ply: 3, seq: 9 });
    await expect(played).resolves.toMatchObject({ seq: 9 });
    // Another reconnection sends nothing more.
    q.onEvent({ type: 'disconnected' });
    q.retry(again.send, () => false);
    expect(again.sent).toHaveLength(2);
    expect(sent).toHaveLength(1);
  });

  it('takes an `ok` as the answer to a move already played whose event is no longer kept', async () => {
    const { send } = transport();
    const q = new MoveQueue(send);
    const played = q.play('phutball move 101 H11#1');
    q.onEvent({ type: 'ok', re: 1, text: 'phutball 101: move #1 (H11) was already played.' });
    await expect(played).resolves.toMatchObject({ type: 'ok' });
  });

  it('does not send twice a move that never left (still queued for the new connection)', () => {
    const { send } = transport();
    const q = new MoveQueue(send);
    void q.play('phutball move 101 H11#1');
    q.onEvent({ type: 'disconnected' });
    const again = transport();
    q.retry(again.send, (id) => id === 1);
    expect(again.sent).toEqual([]);
    // Its answer comes on the new connection under its first id.
    q.onEvent({ type: 'move', re: 1 } as ServerEvent);
    expect(q.size).toBe(0);
  });

  it('keeps a move sent after the drop for the queue, and retries the older ones in order', () => {
    const { send } = transport();
    const q = new MoveQueue(send);
    void q.play('a move 1 X#1');
    void q.play('a move 2 Y#5');
    q.onEvent({ type: 'disconnected' });
    void q.play('a move 3 Z#2'); // goes out with the queued commands
    const again = transport();
    q.retry(again.send, (id) => id === 3);
    expect(again.sent.map((s) => s.line)).toEqual(['a move 1 X#1', 'a move 2 Y#5']);
  });
});
