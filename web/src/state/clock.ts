import type { ClockModel } from './session';

// The time a clock shows at `now` (performance.now()): the running one counts down from its
// last report, never below 0.
export function leftNow(clock: ClockModel, now: number): number {
  return clock.running ? Math.max(0, clock.leftMs - (now - clock.receivedAt)) : clock.leftMs;
}
