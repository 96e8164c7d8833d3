// Starts `plateau serve` for the browser tests: free loopback ports, a temporary data directory,
// the built client (web/dist) as its web root. The caller must stop() it.
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export class PlateauServer {
  // options.biloba: also listen for biloba 0.9.3 clients (on a free port, this.bilobaPort).
  constructor(binary, webDir, options = {}) {
    this.binary = binary;
    this.webDir = webDir;
    this.biloba = options.biloba ?? false;
    this.dir = mkdtempSync(join(tmpdir(), 'plateau-browser-'));
    this.logPath = join(this.dir, 'server.log');
  }

  async start() {
    const [http, text] = [await freePort(), await freePort()];
    this.bilobaPort = this.biloba ? await freePort() : 0;
    this.httpPort = http;
    this.base = `http://127.0.0.1:${http}`;
    const log = openSync(this.logPath, 'a');
    this.proc = spawn(this.binary, [
      'serve', '--data-dir', join(this.dir, 'data'), '--web-dir', this.webDir,
      '--bind', '127.0.0.1', '--http-port', String(http), '--text-port', String(text),
      // No Biloba 0.9.3 server unless asked: its UDP 8001 announcements would reach the interop
      // tests (their clients look for Debian's biloba-server).
      '--biloba-port', String(this.bilobaPort), '--rate', '1000', '--log-level', 'info',
      // Every browser of every scenario comes from 127.0.0.1 (Chromium keeps up to six
      // connections per page): the per-address cap is for strangers, not for this one host.
      '--max-connections-per-address', '1000',
    ], { stdio: ['ignore', log, log] });
    this.exited = new Promise((resolve) => this.proc.once('exit', (code, signal) => resolve({ code, signal })));
    const deadline = Date.now() + 20000;
    while (Date.now() < deadline) {
      if (this.proc.exitCode !== null) throw new Error(`plateau serve exited:\n${this.log()}`);
      try {
        const r = await fetch(`${this.base}/healthz`);
        if (r.status === 200 && (await r.text()) === 'ok\n') return this;
      } catch {
        // not listening yet
      }
      await sleep(50);
    }
    throw new Error(`plateau serve did not become healthy:\n${this.log()}`);
  }

  log() {
    try {
      return readFileSync(this.logPath, 'utf8');
    } catch {
      return '';
    }
  }

  async record(game, board) {
    const r = await fetch(`${this.base}/records/${game}/${board}`);
    if (r.status !== 200) throw new Error(`GET /records/${game}/${board}: ${r.status}`);
    return r.text();
  }

  // SIGTERM, then SIGKILL after 15 s; returns the exit code (0 on a graceful stop).
  async stop() {
    if (!this.proc || this.proc.exitCode !== null || this.proc.signalCode !== null) {
      return this.proc?.exitCode;
    }
    this.proc.kill('SIGTERM');
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), 15000);
    const { code, signal } = await this.exited;
    clearTimeout(timer);
    return code ?? `signal ${signal}`;
  }

  cleanup() {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
