// A hand on the page's WebSocket for the reconnection tests: an init script (run before the
// app) that wraps window.WebSocket so that the test can drop the connection, keep the next ones
// from reaching the server (offline), or drop it right after a given command went out (its
// answer is lost). Every message sent is kept in window.__net.sent.
//
//   await guest(t, { init: NETWORK_HOOK });
//   await goOffline(page);  ...  await goOnline(page);
//   await dropAfter(page, ' move ');
export const NETWORK_HOOK = `(() => {
  const Native = window.WebSocket;
  const net = { sockets: [], sent: [], offline: false, dropAfter: null, drops: 0 };
  window.__net = net;
  window.WebSocket = class extends Native {
    constructor(url, protocols) {
      // Offline: a port nobody listens on (the app sees a failed connection and tries again).
      super(net.offline ? url.replace(/:\\d+\\//, ':1/') : url, protocols);
      net.sockets.push(this);
    }
    send(data) {
      net.sent.push(String(data));
      super.send(data);
      if (net.dropAfter && String(data).includes(net.dropAfter)) {
        net.dropAfter = null;
        net.offline = true;
        net.drops++;
        this.close(); // the answer never reaches the page
      }
    }
  };
})();`;

// Drops the connection; the app's next attempts fail until goOnline().
export async function goOffline(page) {
  await page.evaluate(() => {
    window.__net.offline = true;
    window.__net.drops++;
    window.__net.sockets[window.__net.sockets.length - 1].close();
  });
  await page.waitForSelector('header .offline');
}

// Lets the app's next attempt through (it retries every 2 s) and waits until it is back.
export async function goOnline(page) {
  await page.evaluate(() => { window.__net.offline = false; });
  await page.waitForSelector('header .online', { timeout: 15000 });
}

// Drops the connection right after the next message containing `text` is sent, and stays
// offline until goOnline().
export function dropAfter(page, text) {
  return page.evaluate((t) => { window.__net.dropAfter = t; }, text);
}

// The command lines the page sent (the `cmd` of each message).
export function sentCommands(page) {
  return page.evaluate(() => window.__net.sent.map((m) => {
    try { return JSON.parse(m).cmd; } catch { return m; }
  }));
}

// The failed connections of the offline time are expected: not page errors.
export function forgetOfflineErrors(t) {
  const kept = t.errors.filter((e) => !/WebSocket connection to '[^']*:1\/ws' failed/.test(e));
  t.errors.length = 0;
  t.errors.push(...kept);
}
