// The result of a finished game, kept above the board (the "Game over" box can be closed): who
// won, the score where the game keeps one (boards/index.tsx), and why it ended.
import { t } from '../i18n';

interface Props {
  result: string; // "1-0", "0-1", "1/2-1/2", "0-1-0" (by game seat)
  reason: string;
  names: string[]; // by game seat
  score?: number[]; // by game seat
}

const value = (v: string) => (v === '1/2' || v === '½' ? 0.5 : Number(v));

// The headline: "alice wins", "alice and bob win", "Draw", or the bare result when it names no
// seats (an unusual record).
export function resultHeadline(result: string, names: string[]): string {
  const values = result.split('-').map(value);
  if (values.length !== names.length || values.some(Number.isNaN)) return result;
  const best = Math.max(...values);
  const winners = names.filter((_, i) => values[i] === best);
  if (winners.length === names.length) return t('result.draw');
  if (winners.length === 1) return t('result.wins', { user: winners[0] });
  return t('result.win', { users: winners.join(', ') });
}

export function ResultBanner({ result, reason, names, score }: Props) {
  return (
    <div class="result-banner" role="status" data-result={result} data-reason={reason}>
      <strong class="headline">{resultHeadline(result, names)}</strong>
      {score && <span class="score">{score.join('–')}</span>}
      <span class="reason">{t(`reason.${reason}`)}</span>
    </div>
  );
}
