// The illustrated rules of one game, page by page: a click anywhere (or →, Enter, Space, or the
// Next button) advances, ← or the Previous button goes back; after the last page it returns to
// where the player came from. Each page's diagrams are real positions (rules/Diagram.tsx).
import { useLayoutEffect, useState } from 'preact/hooks';
import { RULES } from './pages';
import { Diagram } from './Diagram';
import './rules.css';
import { language, t } from '../i18n';
import { gameTitle } from '../lobby/games';

interface Props {
  game: string;
  onClose: () => void;
}

export function RulesView({ game, onClose }: Props) {
  const pages = RULES[game] ?? [];
  const [page, setPage] = useState(0);
  const lang = language();
  const next = () => (page + 1 < pages.length ? setPage(page + 1) : onClose());
  const previous = () => setPage(Math.max(0, page - 1));
  // A layout effect: the keys work as soon as the page is on screen.
  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // A focused button takes Enter and Space itself (its click): not a second page turn.
      const target = e.target as HTMLElement | null;
      if ((e.key === 'Enter' || e.key === ' ') && target?.closest?.('button, a, select, input')) return;
      if (e.key === 'ArrowRight' || e.key === 'Enter' || e.key === ' ') next();
      else if (e.key === 'ArrowLeft') previous();
      else if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });
  if (pages.length === 0) return null;
  const p = pages[page];
  return (
    <section class="rules" data-rules-page={page + 1} onClick={next} aria-live="polite">
      <h2>{t('rules.title', { game: gameTitle(game) })}</h2>
      <h3>{p.title[lang] ?? p.title.en}</h3>
      <p>{p.text[lang] ?? p.text.en}</p>
      <div class="diagrams">
        {p.diagrams.map((d) => <Diagram game={game} d={d} />)}
      </div>
      <footer>
        <button type="button" data-action="rules-previous" disabled={page === 0}
          onClick={(e) => { e.stopPropagation(); previous(); }}>{t('rules.previous')}</button>{' '}
        <span>{t('rules.page', { n: page + 1, total: pages.length })}</span>{' '}
        <button type="button" data-action="rules-next"
          onClick={(e) => { e.stopPropagation(); next(); }}>
          {page + 1 < pages.length ? t('rules.nextButton') : t('rules.back')}</button>
        <span class="hint">{t('rules.next')}</span>
      </footer>
    </section>
  );
}
