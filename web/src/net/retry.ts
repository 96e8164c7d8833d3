// Moves until they are acknowledged (docs/PROTOCOL.md, `move BOARD MOVE#n`): every move goes
// out with `#n`, the ply it makes. If the connection drops before the answer came, the move is
// sent again (with the same `#n`) on the next connection, after `resume`: the server plays it
// if the first one never arrived, or answers with the original acknowledgement if it did, so
// the move is played once either way. Pure of sockets, so that the unit tests drive it.
import type { ServerEvent } from './connection';

interface Pending {
  line: string;
  id: number; // the id of the last copy sent
  sentOnOldConnection: boolean; // its connection closed before the answer
  resolve: (event: ServerEvent) => void;
  reject: (error: Error) => void;
}

export class MoveQueue {
  private pending: Pending[] = [];

  // `send` sends a command line now or as soon as the connection is open, and returns its id.
  constructor(private readonly send: (line: string) => number) {}

  // Sends `line` (a move with `#n`); resolves with the `move` event answering it, rejects with
  // the server's error.
  play(line: string): Promise<ServerEvent> {
    return new Promise((resolve, reject) => {
      this.pending.push({ line, id: this.send(line), sentOnOldConnection: false, resolve, reject });
    });
  }

  // Every event from the server, in arrival order.
  onEvent(event: ServerEvent): void {
    if (event.type === 'disconnected') {
      for (const p of this.pending) p.sentOnOldConnection = true;
      return;
    }
    if (event.re === undefined) return;
    const i = this.pending.findIndex((p) => p.id === event.re);
    if (i < 0) return;
    const p = this.pending[i];
    if (event.type === 'error') {
      this.pending.splice(i, 1);
      p.reject(new Error(String(event.message ?? 'error')));
    } else if (event.type === 'move' || event.type === 'ok') {
      // `ok`: a move already played whose original answer the server no longer keeps.
      this.pending.splice(i, 1);
      p.resolve(event);
    }
  }

  // On a new connection, once logged in again: sends again, in order, every move whose answer
  // the old connection lost. `stillQueued(id)`: that copy never left (it goes out by itself).
  retry(sendNow: (line: string) => number, stillQueued: (id: number) => boolean): void {
    for (const p of this.pending) {
      if (!p.sentOnOldConnection) continue;
      p.sentOnOldConnection = false;
      if (!stillQueued(p.id)) p.id = sendNow(p.line);
    }
  }

  // How many moves wait for their answer.
  get size(): number {
    return this.pending.length;
  }
}
