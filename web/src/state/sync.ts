// Keeps the tables the client shows in step with the server across reconnections
// (docs/PROTOCOL.md, "Sequence numbers and resync"; README, "The browser client"):
//  - opening a table: `/table GAME N`, `/watch`, whose answer is the whole state with the
//    table's last seq (`last_seq`): from there on every event is counted (SeqFilter), since
//    every event numbered above it comes after that answer;
//  - an event whose seq is not above the last seen is dropped, one beyond the next asks
//    `resync GAME N LAST` (the replay brings the missing ones in order);
//  - after a reconnection (and the `resume` that logs it in again): `/table GAME N` and
//    `resync GAME N LAST` for every table shown; `/watch` when no seq is known, or when the
//    server answers that the events are no longer kept (the table is loaded again).
// The answers to these commands are handled here, never shown as errors.
import type { ServerEvent } from '../net/connection';
import { SeqFilter } from './seq';
import { tableKey } from './keys';

type Send = (line: string) => number;

interface Request {
  kind: 'watch' | 'resync';
  game: string;
  board: number;
}

export interface SyncHooks {
  // The table is loaded again from scratch (events lost): forget what the model holds that
  // only events fill in (the moves come back from the record).
  reload: (game: string, board: number) => void;
  // A replay ended: the clocks it carried are as old as the events; ask for the board.
  replayed: (game: string, board: number, count: number) => void;
}

export class TableSync {
  private filters = new Map<string, SeqFilter>();
  private shown = new Map<string, { game: string; board: number; stale: boolean }>();
  private requests = new Map<number, Request>();

  constructor(private readonly send: Send, private readonly hooks: SyncHooks) {}

  filter(game: string, board: number): SeqFilter {
    const key = tableKey(game, board);
    let f = this.filters.get(key);
    if (!f) {
      f = new SeqFilter();
      this.filters.set(key, f);
    }
    return f;
  }

  // The table is on screen: go there, load its state and follow it.
  open(game: string, board: number): void {
    this.shown.set(tableKey(game, board), { game, board, stale: false });
    // What was counted before (a table left and come back to) is older than the state to come.
    this.filter(game, board).reset();
    this.watch(game, board, this.send);
  }

  // The table left the screen (it is still counted if its events keep coming).
  close(game: string, board: number): void {
    this.shown.delete(tableKey(game, board));
  }

  isShown(game: string, board: number): boolean {
    return this.shown.has(tableKey(game, board));
  }

  // The connection dropped: what the shown tables heard ends here.
  disconnected(): void {
    for (const t of this.shown.values()) t.stale = true;
    // Answers to commands of the old connection never come.
    this.requests.clear();
    for (const f of this.filters.values()) f.resyncing = false;
  }

  // A new connection, logged in again: catch up with every table shown.
  reconnected(sendNow: Send): void {
    for (const t of this.shown.values()) {
      if (!t.stale) continue;
      t.stale = false;
      const f = this.filter(t.game, t.board);
      if (f.last === undefined) {
        this.watch(t.game, t.board, sendNow);
      } else {
        sendNow(`/table ${t.game} ${t.board}`); // the current table again (for /say, /join)
        this.resync(t.game, t.board, f.last, sendNow);
      }
    }
  }

  // Whether `e` goes on to the model: false for duplicates, events past a gap (a resync is
  // asked) and the answers to this class's own commands.
  admit(e: ServerEvent): boolean {
    const request = e.re !== undefined ? this.requests.get(e.re) : undefined;
    const answered = request ? this.answer(request, e) : undefined;
    if (answered !== undefined) return answered;
    if (e.type === 'resync') return false; // the end of a replay asked before a reconnection
    if (typeof e.game !== 'string' || typeof e.board !== 'number') return true;
    const seq = typeof e.seq === 'number' ? e.seq : undefined;
    const f = this.filter(e.game, e.board);
    switch (f.accept(seq)) {
      case 'apply':
        return true;
      case 'gap':
        this.resync(e.game, e.board, f.last!, this.send);
        return false;
      default:
        return false;
    }
  }

  // The answer to one of our commands: whether it goes on to the model, or undefined when it is
  // another event the command caused (a numbered `spectators`: counted as any other).
  private answer(r: Request, e: ServerEvent): boolean | undefined {
    const f = this.filter(r.game, r.board);
    if (r.kind === 'watch') {
      // The whole state: a `board` event, or a `table` event before the first start, with the
      // table's last seq; events above it that came first (older than this state) come again.
      if (e.type !== 'board' && e.type !== 'table' && e.type !== 'error') return undefined;
      this.requests.delete(e.re!);
      if (e.type === 'error') return true;
      const lastSeq = typeof e.last_seq === 'number' ? e.last_seq : undefined;
      if (f.watched(lastSeq)) this.resync(r.game, r.board, f.last!, this.send);
      return true;
    }
    if (e.type !== 'resync' && e.type !== 'error') return undefined;
    this.requests.delete(e.re!);
    if (e.type === 'resync') {
      if (f.resynced(Number(e.seq))) this.resync(r.game, r.board, f.last!, this.send);
      else this.hooks.replayed(r.game, r.board, Number(e.count ?? 0));
      return false;
    }
    if (e.type === 'error') {
      // The events after our last are no longer kept (or the table knows no such seq):
      // load the whole table again.
      f.reset();
      this.hooks.reload(r.game, r.board);
      this.watch(r.game, r.board, this.send);
      return false;
    }
    return true;
  }

  private watch(game: string, board: number, send: Send): void {
    send(`/table ${game} ${board}`); // `/watch` acts on the current table
    this.requests.set(send('/watch'), { kind: 'watch', game, board });
  }

  private resync(game: string, board: number, from: number, send: Send): void {
    const f = this.filter(game, board);
    f.resyncing = true;
    this.requests.set(send(`resync ${game} ${board} ${from}`), { kind: 'resync', game, board });
  }
}
