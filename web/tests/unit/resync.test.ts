// Issue 13, item 5 (the browser's half), through the Session: a table opened learns its last
// seq from the answer to its /watch (`last_seq`); after a reconnection the session resumes, resyncs from its last seq and sends the
// unanswered move again; replayed and live events end up in the model exactly once; a lost
// history loads the table again. Also the seat labels of a numbered record (after a reload).
import { beforeEach, describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../src/net/connection';
import { Connection } from '../../src/net/connection';
import { Session } from '../../src/state/session';
import { playedMoves, recordMoves } from '../../src/table/record';

class FakeConnection extends Connection {
  sent: { id: number; line: string }[] = [];
  private id = 0;
  constructor() {
    super('ws://unused');
  }
  override send(line: string): number {
    this.sent.push({ id: ++this.id, line });
    return this.id;
  }
  open(): void {
    this.onOpen?.((line) => this.send(line));
  }
  serve(event: ServerEvent): void {
    (this as unknown as { emit: (e: ServerEvent) => void }).emit(event);
  }
  idOf(line: string): number {
    const found = [...this.sent].reverse().find((s) => s.line === line);
    if (!found) throw new Error(`not sent: ${line}; sent ${JSON.stringify(this.sent)}`);
    return found.id;
  }
  linesFrom(index: number): string[] {
    return this.sent.slice(index).map((s) => s.line);
  }
}

const G = 'phutball';
const B = 101;
const move = (seq: number, ply: number, label: string, text: string, re?: number): ServerEvent => ({
  type: 'move', game: G, board: B, seq, ply, label, user: label === 'A' ? 'ann' : 'bob', move: text,
  position: `p${ply}`, next_user: label === 'A' ? 'bob' : 'ann', ...(re ? { re } : {}),
});
const chat = (seq: number, message: string): ServerEvent =>
  ({ type: 'chat', game: G, board: B, seq, user: 'bob', message });

// A session at phutball 101, opened at ply 2 (seq 10), logged in with a stored token.
function atTable() {
  localStorage.setItem('plateau.resumeToken', 'TOKEN');
  const conn = new FakeConnection();
  const session = new Session(conn);
  conn.open();
  conn.serve({ type: 'login', user: 'ann', guest: false, re: 1, token: 'TOKEN' });
  session.openTable(G, B);
  expect(conn.linesFrom(1)).toEqual([`/table ${G} ${B}`, '/watch']);
  // The answer to /table (the current table, for /say and /join) counts nothing.
  conn.serve({ type: 'table', game: G, board: B, status: 'playing', ply: 2, last_seq: 9,
    re: conn.idOf(`/table ${G} ${B}`) });
  expect(session.sync.filter(G, B).last).toBeUndefined();
  // A numbered event heard before the state (/table made this connection a watcher).
  conn.serve({ type: 'spectators', game: G, board: B, seq: 10, spectators: ['cid'] });
  conn.serve({ type: 'board', game: G, board: B, status: 'playing', ply: 2, position: 'p2',
    last_seq: 10, re: conn.idOf('/watch') });
  const t = session.table(G, B);
  t.moves = [{ seat: 'A', user: '', text: 'H11' }, { seat: 'B', user: '', text: 'J12' }]; // the record
  expect(session.state.lastError).toBeUndefined();
  expect(session.sync.filter(G, B).last).toBe(10);
  expect(conn.linesFrom(1)).toEqual([`/table ${G} ${B}`, '/watch']); // nothing else asked
  return { conn, session, t };
}

const listed = (session: Session) =>
  session.table(G, B).moves.map((m) => `${m.seat}: ${m.text}`);

describe('the browser resyncs by itself', () => {
  beforeEach(() => localStorage.clear());

  it('drops live duplicates and fills a gap by a resync', () => {
    const { conn, session } = atTable();
    conn.serve(move(11, 3, 'A', 'H12'));
    conn.serve(move(11, 3, 'A', 'H12'));
    conn.serve(chat(13, 'hi')); // 12 is missing
    const sent = conn.sent.length;
    expect(conn.linesFrom(sent - 1)).toEqual([`resync ${G} ${B} 11`]);
    conn.serve(chat(12, 'first'));
    conn.serve(chat(13, 'hi'));
    conn.serve({ type: 'resync', game: G, board: B, from: 11, seq: 13, count: 2,
      re: conn.idOf(`resync ${G} ${B} 11`) });
    expect(session.table(G, B).chat.map((c) => c.message)).toEqual(['first', 'hi']);
    expect(listed(session)).toEqual(['A: H11', 'B: J12', 'A: H12']);
  });

  it('after a reconnection: resume, /table, resync from the last seq, the lost move again', async () => {
    const { conn, session, t } = atTable();
    const played = session.play(G, B, 'H12', 3);
    const moveLine = `${G} move ${B} H12#3`;
    conn.serve({ type: 'disconnected' });
    const before = conn.sent.length;
    conn.open();
    expect(conn.linesFrom(before)).toEqual(['resume TOKEN', `/table ${G} ${B}`,
      `resync ${G} ${B} 10`, moveLine]);
    conn.serve({ type: 'login', user: 'ann', guest: false, re: conn.idOf('resume TOKEN') });
    // A live event of the other connection comes first, then the replay (11 again, 12, 13).
    conn.serve(chat(12, 'are you there?')); // past a gap while resyncing: dropped
    conn.serve(move(11, 3, 'A', 'H12'));
    conn.serve(move(11, 3, 'A', 'H12'));
    conn.serve(move(12, 4, 'B', 'K11'));
    conn.serve(chat(13, 'are you there?'));
    conn.serve({ type: 'resync', game: G, board: B, from: 10, seq: 13, count: 3,
      re: conn.idOf(`resync ${G} ${B} 10`) });
    // The retried move's answer: the original event (same seq), not applied again.
    conn.serve(move(11, 3, 'A', 'H12', conn.idOf(moveLine)));
    await expect(played).resolves.toMatchObject({ seq: 11 });
    conn.serve(chat(13, 'are you there?'));
    conn.serve(move(14, 5, 'A', 'L10'));
    expect(listed(session)).toEqual(['A: H11', 'B: J12', 'A: H12', 'B: K11', 'A: L10']);
    expect(t.chat.map((c) => c.message)).toEqual(['are you there?']);
    expect(t.ply).toBe(5);
    expect(session.state.lastError).toBeUndefined();
  });

  it('loads the table again when the events are no longer kept', () => {
    const { conn, session, t } = atTable();
    conn.serve({ type: 'disconnected' });
    const before = conn.sent.length;
    conn.open();
    conn.serve({ type: 'error', re: conn.idOf(`resync ${G} ${B} 10`), message:
      `the events of ${G} ${B} before 500 are no longer kept; /watch ${B} for the whole board, then resync from its seq` });
    expect(session.state.lastError).toBeUndefined();
    expect(conn.linesFrom(before + 3)).toEqual([`/table ${G} ${B}`, '/watch']);
    expect(t.moves).toEqual([]); // they come back from the record
    conn.serve({ type: 'board', game: G, board: B, status: 'playing', ply: 600, position: 'p600',
      last_seq: 1203, re: conn.idOf('/watch') });
    expect(session.sync.filter(G, B).last).toBe(1203);
    expect(t.ply).toBe(600);
    // The count goes on from there: 1204 is applied, 1206 asks for what is missing.
    conn.serve(move(1204, 601, 'A', 'H12'));
    expect(t.ply).toBe(601);
    const sent = conn.sent.length;
    conn.serve(chat(1206, 'late'));
    expect(conn.linesFrom(sent)).toEqual([`resync ${G} ${B} 1204`]);
    expect(session.state.lastError).toBeUndefined();
  });

  it('counts the numbered events a catching-up command causes (its own spectators event)', () => {
    const { conn, session } = atTable();
    const spectators = (seq: number, re?: number): ServerEvent =>
      ({ type: 'spectators', game: G, board: B, seq, spectators: [`s${seq}`], re });
    conn.serve({ type: 'disconnected' });
    conn.open();
    const resyncId = conn.idOf(`resync ${G} ${B} 10`);
    conn.serve({ type: 'resync', game: G, board: B, from: 10, seq: 10, count: 0, re: resyncId });
    conn.serve(spectators(11, resyncId));
    expect(session.table(G, B).spectators).toEqual(['s11']);
    conn.serve(spectators(13, resyncId)); // past a gap: not applied, a resync asked
    expect(session.table(G, B).spectators).toEqual(['s11']);
    expect(conn.sent[conn.sent.length - 1].line).toBe(`resync ${G} ${B} 11`);
  });

  it('watches again after a reconnection when no seq is known yet', () => {
    localStorage.setItem('plateau.resumeToken', 'TOKEN');
    const conn = new FakeConnection();
    const session = new Session(conn);
    conn.open();
    session.openTable(G, B);
    conn.serve({ type: 'disconnected' });
    const before = conn.sent.length;
    conn.open();
    expect(conn.linesFrom(before)).toEqual(['resume TOKEN', `/table ${G} ${B}`, '/watch']);
    // The answer of the new connection's /watch starts the count.
    conn.serve({ type: 'table', game: G, board: B, status: 'setup', ply: 0, last_seq: 3,
      re: conn.idOf('/watch') });
    expect(session.sync.filter(G, B).last).toBe(3);
    // A table left is not caught up with.
    session.closeTable(G, B, true);
    conn.serve({ type: 'disconnected' });
    const later = conn.sent.length;
    conn.open();
    expect(conn.linesFrom(later)).toEqual(['resume TOKEN']);
  });
});

describe('the answer to /watch', () => {
  beforeEach(() => localStorage.clear());

  it('resyncs from its last_seq when events above it came first (older than the state)', () => {
    localStorage.setItem('plateau.resumeToken', 'TOKEN');
    const conn = new FakeConnection();
    const session = new Session(conn);
    conn.open();
    conn.serve({ type: 'login', user: 'ann', guest: false, re: 1, token: 'TOKEN' });
    session.openTable(G, B);
    conn.serve(move(11, 3, 'A', 'H12'));
    conn.serve({ type: 'board', game: G, board: B, status: 'playing', ply: 2, position: 'p2',
      last_seq: 10, re: conn.idOf('/watch') });
    expect(conn.sent[conn.sent.length - 1].line).toBe(`resync ${G} ${B} 10`);
    expect(session.sync.filter(G, B).last).toBe(10);
    conn.serve(move(11, 3, 'A', 'H12')); // the replay brings it again, over the state
    conn.serve({ type: 'resync', game: G, board: B, from: 10, seq: 11, count: 1,
      re: conn.idOf(`resync ${G} ${B} 10`) });
    expect(session.table(G, B).ply).toBe(3);
    expect(session.sync.filter(G, B).last).toBe(11);
    expect(session.state.lastError).toBeUndefined();
  });

  it('without last_seq (an older server), the next numbered event starts the count', () => {
    const conn = new FakeConnection();
    const session = new Session(conn);
    conn.open();
    session.openTable(G, B);
    conn.serve({ type: 'board', game: G, board: B, status: 'playing', ply: 2, position: 'p2',
      re: conn.idOf('/watch') });
    expect(session.sync.filter(G, B).last).toBeUndefined();
    conn.serve(chat(7, 'hi'));
    expect(session.sync.filter(G, B).last).toBe(7);
  });
});

describe('a question in flight when the connection drops', () => {
  it('fails (its answer never comes), so that the page asks again once connected', async () => {
    const conn = new FakeConnection();
    const steps = conn.request(`${G} steps ${B}`, 'steps');
    conn.serve({ type: 'disconnected' });
    await expect(steps).rejects.toThrow('connection lost');
  });
});

describe('the moves of a record', () => {
  it('take the game\'s seat labels when the record names no seats (after a reload)', () => {
    const record = '[Game "phutball"]\n[Seats "ann,bob"]\n[Result "*"]\n1. H11 2. J12 3. H12\n';
    expect(recordMoves(record)).toEqual([{ seat: '', text: 'H11' }, { seat: '', text: 'J12' },
      { seat: '', text: 'H12' }]);
    expect(playedMoves(record, ['A', 'B']).map((m) => `${m.seat}: ${m.text}`))
      .toEqual(['A: H11', 'B: J12', 'A: H12']);
    // Numbers glued to the move, or left out, and three seats.
    expect(playedMoves('1.a 2.b c d\n', ['O', 'B', 'R']).map((m) => m.seat)).toEqual(['O', 'B', 'R', 'O']);
  });

  it('keep the record\'s own labels and leave forced passes out', () => {
    const record = '[Game "bohnduell"]\nA:S4 B:S1 A:H2 A:pass B:S2\n';
    expect(playedMoves(record, ['A', 'B']).map((m) => `${m.seat}: ${m.text}`))
      .toEqual(['A: S4', 'B: S1', 'A: H2', 'B: S2']);
  });
});
