// Export of the game record (issue 17 item 7): a link that downloads the server's record as it
// serves it (/records/GAME/N, or an invisible table's URL with its key), and a button that
// copies the same text to the clipboard.
import { useState } from 'preact/hooks';
import { t } from '../i18n';

interface Props {
  url: string;
  game: string;
  board: number;
}

// The clipboard API where the page may use it (a secure context, a focused document), else a
// selected text area and the older copy command.
async function copyText(text: string): Promise<void> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return;
    }
  } catch {
    // refused (not allowed, or the document lost focus): the text area below
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('the browser refused');
}

export function RecordExport({ url, game, board }: Props) {
  const [status, setStatus] = useState('');
  const copy = async () => {
    try {
      const r = await fetch(url);
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      await copyText(await r.text());
      setStatus(t('export.copied'));
    } catch (err) {
      setStatus(t('export.copyFailed', { why: (err as Error).message }));
    }
  };
  return (
    <div class="record-export">
      <a href={url} download={`${game}-${board}.record`} data-action="download-record">
        {t('table.download')}</a>
      <button data-action="copy-record" onClick={copy}>{t('export.copy')}</button>
      <span class="copy-status" aria-live="polite">{status}</span>
    </div>
  );
}
