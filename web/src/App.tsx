// The application shell: a hash router over the lobby, a table, the rules and replays.
//   #/               lobby
//   #/rules/GAME     illustrated rules of GAME
import { useEffect, useState } from 'preact/hooks';
import { RulesView } from './rules/RulesView';
import { LANGUAGES, language, setLanguage, t } from './i18n';

const GAMES = ['bohnduell', 'phutball', 'biloba'];

function useHash(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const onChange = () => setHash(location.hash);
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return hash;
}

export function App() {
  const hash = useHash();
  const [, rerender] = useState(0);
  const parts = hash.replace(/^#\/?/, '').split('/');
  let body;
  if (parts[0] === 'rules' && GAMES.includes(parts[1])) {
    body = <RulesView key={parts[1]} game={parts[1]} onClose={() => (location.hash = '#/')} />;
  } else {
    body = (
      <nav class="lobby">
        <h2>{t('nav.rules')}</h2>
        <ul>
          {GAMES.map((g) => (
            <li><a href={`#/rules/${g}`}>{t(`game.${g}`)}</a></li>
          ))}
        </ul>
      </nav>
    );
  }
  return (
    <div class="app">
      <header>
        <h1><a href="#/">{t('app.title')}</a></h1>
        <label>
          {t('nav.language')}{' '}
          <select value={language()} onChange={(e) => {
            setLanguage((e.target as HTMLSelectElement).value);
            rerender((n) => n + 1);
          }}>
            {LANGUAGES.map((l) => <option value={l}>{l}</option>)}
          </select>
        </label>
      </header>
      <main>{body}</main>
    </div>
  );
}
