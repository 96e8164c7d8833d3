// The sequence numbers of one table's events (docs/PROTOCOL.md, "Sequence numbers and resync"):
// every event everyone at a table hears carries `seq` (1, 2, 3, ... without gaps). The client
// applies each one exactly once and in order: a seq not above the last seen is a duplicate (a
// live event that a replay sends again, or the other way round) and is dropped; a seq beyond
// the next one means events were missed: the caller asks `resync BOARD LAST` and drops the
// event (the replay brings it, in order). Pure, so that the unit tests check every case.

export type Verdict = 'apply' | 'drop' | 'gap';

export class SeqFilter {
  last?: number; // the seq of the last event applied; undefined: not known yet
  resyncing = false; // a `resync` is on its way: only its next event is welcome

  // What to do with an event carrying `seq` (events without one, replies, are always applied).
  accept(seq: number | undefined): Verdict {
    if (seq === undefined) return 'apply';
    if (this.last === undefined) {
      // No reference yet (just after a /watch): the first numbered event starts the count.
      this.last = seq;
      return 'apply';
    }
    if (seq <= this.last) return 'drop';
    if (seq === this.last + 1) {
      this.last = seq;
      return 'apply';
    }
    // A gap: while a resync runs, its replay brings the missing events first.
    if (this.resyncing) return 'drop';
    this.resyncing = true;
    return 'gap';
  }

  // The whole state of the table arrived (the answer to /watch), as it stood after event
  // `lastSeq` (its `last_seq`): the count goes on from there, since every event above it reaches
  // the connection after that answer. Returns true when events above it were already applied
  // (the state shown is older than them): the caller then resyncs from `last`. Without a
  // `lastSeq` (a server that does not send it), the next numbered event starts the count again.
  watched(lastSeq: number | undefined): boolean {
    if (lastSeq === undefined) {
      if (!this.resyncing) this.last = undefined;
      return false;
    }
    const ahead = this.last !== undefined && this.last > lastSeq;
    this.last = lastSeq;
    if (!ahead || this.resyncing) return false;
    this.resyncing = true;
    return true;
  }

  // The end of a replay (`resync` answers with the table's last seq once it has sent every
  // event up to it). Returns true when events are still missing (the caller resyncs again).
  resynced(seq: number): boolean {
    this.resyncing = false;
    if (this.last === undefined) this.last = seq;
    if (this.last >= seq) return false;
    this.resyncing = true;
    return true;
  }

  // Forget everything (the events are no longer kept: the table is loaded again with /watch).
  reset(): void {
    this.last = undefined;
    this.resyncing = false;
  }
}
