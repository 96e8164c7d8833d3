// "Your turn" where the player is not looking: a short chime (Web Audio, unless muted in the
// settings) and a system notification (the Notifications API, only once the player allowed it
// from the settings page). Each alert is counted on <body data-chimes / data-notified> so that
// the browser tests can see what the player would have heard and seen.
import { settings } from './settings';

let audio: AudioContext | undefined;

function count(name: 'chimes' | 'notified'): void {
  const body = document.body;
  body.dataset[name] = String(Number(body.dataset[name] ?? '0') + 1);
}

// Two soft notes (a fifth apart), 0.35 s in all. Browsers keep audio silent until the page had
// a click; the chime is then silent, never an error.
export function chime(): void {
  if (settings().muted) return;
  count('chimes');
  try {
    audio ??= new AudioContext();
    const start = audio.currentTime;
    for (const [i, frequency] of [660, 990].entries()) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start + i * 0.15);
      gain.gain.exponentialRampToValueAtTime(0.15, start + i * 0.15 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + i * 0.15 + 0.2);
      osc.connect(gain).connect(audio.destination);
      osc.start(start + i * 0.15);
      osc.stop(start + i * 0.15 + 0.2);
    }
  } catch {
    // no audio output: the title and the notification still say it
  }
}

// The permission state: 'granted', 'denied', 'default', or 'unsupported'.
export function notificationPermission(): string {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

// Asks the player (only from a click on the settings page: browsers refuse it otherwise).
export async function askNotificationPermission(): Promise<string> {
  if (typeof Notification === 'undefined') return 'unsupported';
  return Notification.requestPermission();
}

// A notification that opens `href` when clicked; nothing without the player's permission.
export function notify(title: string, body: string, href: string, tag: string): void {
  if (notificationPermission() !== 'granted') return;
  try {
    const n = new Notification(title, { body, tag });
    count('notified');
    n.onclick = () => {
      window.focus();
      location.hash = href;
      n.close();
    };
  } catch {
    // some browsers allow notifications only from a service worker: the title still counts
  }
}
