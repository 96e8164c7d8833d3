// The WebSocket connection to `plateau serve` (docs/PROTOCOL.md, "WebSocket JSON"): commands go
// out as {"cmd": LINE, "id": N}; every event comes back as one JSON object with a `type`, and
// replies to a command carry "re": N. Events are handed to every listener in arrival order.

export interface ServerEvent {
  type: string;
  re?: number;
  text?: string;
  [field: string]: unknown;
}

type Listener = (event: ServerEvent) => void;

export class Connection {
  private socket: WebSocket | null = null;
  private nextId = 1;
  private listeners = new Set<Listener>();
  private queue: { id: number; message: string }[] = []; // to send once open
  private closedByUser = false;
  // Runs on every (re)connection before the queued commands go out, with a way to send a line
  // first (the session's `resume TOKEN`, so that the commands after it run as the same user).
  onOpen: ((sendFirst: (line: string) => number) => void) | null = null;

  constructor(private readonly url: string) {}

  connect(): void {
    this.closedByUser = false;
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.onopen = () => {
      this.onOpen?.((line) => this.send(line));
      for (const { message } of this.queue.splice(0)) socket.send(message);
      this.emit({ type: 'connected' });
    };
    socket.onmessage = (message) => {
      try {
        this.emit(JSON.parse(String(message.data)) as ServerEvent);
      } catch {
        this.emit({ type: 'error', message: 'unreadable message from the server' });
      }
    };
    socket.onclose = () => {
      this.emit({ type: 'disconnected' });
      if (!this.closedByUser) setTimeout(() => this.connect(), 2000);
    };
  }

  close(): void {
    this.closedByUser = true;
    this.socket?.close();
  }

  // Sends one command line; returns its id (replies carry it as `re`).
  send(line: string): number {
    const id = this.nextId++;
    const message = JSON.stringify({ cmd: line, id });
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(message);
    else this.queue.push({ id, message });
    return id;
  }

  // Whether the command `id` still waits for the connection to open (it has not left yet).
  isQueued(id: number): boolean {
    return this.queue.some((q) => q.id === id);
  }

  // Sends a command and resolves with the first reply of `type` (or rejects on an error reply).
  request(line: string, type: string): Promise<ServerEvent> {
    return new Promise((resolve, reject) => {
      const id = this.send(line);
      const off = this.listen((event) => {
        if (event.type === 'disconnected') {
          // Its answer will never come (net/retry.ts sends moves again; nothing else is).
          off();
          reject(new Error('connection lost'));
          return;
        }
        if (event.re !== id) return;
        if (event.type === 'error') {
          off();
          reject(new Error(String(event.message ?? 'error')));
        } else if (event.type === type) {
          off();
          resolve(event);
        }
      });
    });
  }

  listen(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: ServerEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }
}

export function defaultUrl(): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}/ws`;
}
