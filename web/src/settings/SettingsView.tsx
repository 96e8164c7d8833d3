// The settings page (#/settings): mail about your games (the server's `notify` setting, for
// accounts), the chime, browser notifications, the language, move confirmation, sign out.
import { useEffect, useState } from 'preact/hooks';
import type { Session } from '../state/session';
import { useSession } from '../state/session';
import { changeSettings, settings } from '../state/settings';
import { askNotificationPermission, notificationPermission } from '../state/alerts';
import { LANGUAGES, language, setLanguage, t } from '../i18n';

const NOTIFY = ['every', 'digest', 'off'];

interface Props {
  session: Session;
  onLanguage: () => void; // the whole page is drawn again in the new language
}

export function SettingsView({ session, onLanguage }: Props) {
  const state = useSession(session);
  const [local, setLocal] = useState(settings());
  const [notifyMode, setNotifyMode] = useState('');
  const [notifyText, setNotifyText] = useState('');
  const [permission, setPermission] = useState(notificationPermission());
  const account = Boolean(state.user) && !state.guest;
  const conn = session.connection;

  // The current mail setting, as the server keeps it ("notify digest: one mail a day ...").
  useEffect(() => {
    if (!account || !state.connected) return;
    conn.request('notify', 'ok').then((e) => {
      setNotifyMode(/^notify (\w+)/.exec(String(e.text))?.[1] ?? '');
      setNotifyText(String(e.text));
    }).catch(() => undefined);
  }, [account, state.connected]);

  const chooseNotify = (mode: string) => {
    setNotifyMode(mode);
    conn.request(`notify ${mode}`, 'ok')
      .then((e) => setNotifyText(String(e.text)))
      .catch((err: Error) => setNotifyText(err.message));
  };
  const change = (c: Parameters<typeof changeSettings>[0]) => {
    changeSettings(c);
    setLocal(settings());
  };

  return (
    <section class="settings">
      <h2>{t('settings.title')}</h2>
      <fieldset>
        <legend>{t('settings.mail')}</legend>
        {account ? (
          <>
            {NOTIFY.map((mode) => (
              <label class="choice">
                <input type="radio" name="notify" value={mode} data-field={`notify-${mode}`}
                  checked={notifyMode === mode} onChange={() => chooseNotify(mode)} />{' '}
                {t(`settings.notify.${mode}`)}
              </label>
            ))}
            <p class="server-answer" data-notify={notifyMode} aria-live="polite">{notifyText}</p>
          </>
        ) : <p>{t('settings.mailGuest')}</p>}
      </fieldset>
      <fieldset>
        <legend>{t('settings.turn')}</legend>
        <label class="choice">
          <input type="checkbox" data-field="mute" checked={local.muted}
            onChange={(e) => change({ muted: (e.target as HTMLInputElement).checked })} />{' '}
          {t('settings.mute')}
        </label>
        <p data-permission={permission}>
          {t(`settings.permission.${permission}`)}{' '}
          {permission === 'default' && (
            <button data-action="allow-notifications"
              onClick={() => askNotificationPermission().then(setPermission)}>
              {t('settings.allow')}
            </button>
          )}
        </p>
      </fieldset>
      <fieldset>
        <legend>{t('settings.play')}</legend>
        <label class="choice">
          <input type="checkbox" data-field="confirm-moves" checked={local.confirmMoves}
            onChange={(e) => change({ confirmMoves: (e.target as HTMLInputElement).checked })} />{' '}
          {t('settings.confirmMoves')}
        </label>
        <label class="choice">{t('nav.language')}{' '}
          <select data-field="language" value={language()} onChange={(e) => {
            setLanguage((e.target as HTMLSelectElement).value);
            onLanguage();
          }}>
            {LANGUAGES.map((l) => <option value={l}>{t(`language.${l}`)}</option>)}
          </select>
        </label>
      </fieldset>
      {state.user && (
        <button data-action="sign-out" onClick={() => {
          session.connection.send('logout');
          location.hash = '#/';
        }}>{t('settings.signOut')}</button>
      )}
    </section>
  );
}
