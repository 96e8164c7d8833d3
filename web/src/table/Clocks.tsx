// The game clocks of a clocked table: time left per seat, the running one counting down between
// the server's reports (the server decides when time is up; this is only the display).
import { useEffect, useState } from 'preact/hooks';
import type { ClockModel } from '../state/session';
import { t } from '../i18n';
import { leftNow } from '../state/clock';
import { playerName } from '../lobby/listing';

export { leftNow };

export function formatClock(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}


export function Clocks({ clocks }: { clocks: ClockModel[] }) {
  const [now, setNow] = useState(performance.now());
  const running = clocks.some((c) => c.running);
  useEffect(() => {
    if (!running) return undefined;
    const timer = setInterval(() => setNow(performance.now()), 250);
    return () => clearInterval(timer);
  }, [running]);
  return (
    <ul class="clocks" aria-label={t('table.clocks')}>
      {clocks.map((c) => {
        const left = leftNow(c, Math.max(now, c.receivedAt));
        const classes = ['clock', c.running ? 'running' : '', left < 10000 ? 'low' : '']
          .filter(Boolean).join(' ');
        return (
          <li class={classes} data-user={c.user} data-running={String(c.running)}
            data-left-ms={Math.round(left)}>
            <span class="who">{`${c.label} ${playerName(c.user)}`}</span>
            <span class="time" role="timer">{formatClock(left)}</span>
          </li>
        );
      })}
    </ul>
  );
}
