// The resume token (issue 13, item 6): kept from the login answer, sent first on every
// (re)connection, forgotten when the server refuses it or on logout.
import { beforeEach, describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../src/net/connection';
import { Connection } from '../../src/net/connection';
import { Session } from '../../src/state/session';

const TOKEN = 'q3Xk1v8b0Yw2aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';

// A connection that records what is sent and lets the test play the server.
class FakeConnection extends Connection {
  sent: string[] = [];
  private id = 0;
  constructor() {
    super('ws://unused');
  }
  override send(line: string): number {
    this.sent.push(line);
    return ++this.id;
  }
  open(): void {
    this.onOpen?.((line) => this.send(line));
  }
  serve(event: ServerEvent): void {
    (this as unknown as { emit: (e: ServerEvent) => void }).emit(event);
  }
}

describe('resume token', () => {
  beforeEach(() => localStorage.clear());

  it('is kept from the login answer and resumed with on the next connection', () => {
    const conn = new FakeConnection();
    const session = new Session(conn);
    conn.open();
    expect(conn.sent).toEqual([]); // nothing stored yet: no resume
    conn.serve({ type: 'login', user: 'guest3', guest: true, re: 1, token: TOKEN });
    expect(localStorage.getItem('plateau.resumeToken')).toBe(TOKEN);
    expect(session.state.user).toBe('guest3');

    const reloaded = new FakeConnection();
    const again = new Session(reloaded);
    reloaded.open();
    expect(reloaded.sent).toEqual([`resume ${TOKEN}`]);
    reloaded.serve({ type: 'login', user: 'guest3', guest: true, re: 1, token: TOKEN });
    expect(again.state.user).toBe('guest3');
    expect(again.state.guest).toBe(true);
  });

  it('is forgotten when the server refuses it, and not on other errors', () => {
    localStorage.setItem('plateau.resumeToken', TOKEN);
    const conn = new FakeConnection();
    const session = new Session(conn);
    conn.open();
    conn.serve({ type: 'error', re: 7, message: 'not the resume' });
    expect(localStorage.getItem('plateau.resumeToken')).toBe(TOKEN);
    conn.serve({ type: 'error', re: 1,
      message: 'unknown, expired or revoked resume token; log in again' });
    expect(localStorage.getItem('plateau.resumeToken')).toBeNull();
    expect(session.state.user).toBeUndefined();
  });

  it('is forgotten on logout', () => {
    const conn = new FakeConnection();
    const session = new Session(conn);
    conn.serve({ type: 'login', user: 'alice', guest: false, re: 1, token: TOKEN });
    conn.serve({ type: 'ok', re: 2, text: 'Logged out.' });
    expect(localStorage.getItem('plateau.resumeToken')).toBeNull();
    expect(session.state.user).toBeUndefined();
  });
});
