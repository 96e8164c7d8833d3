// The option fields of a game in the lobby's forms, built from its schema in /api/games: the
// number of players first (the game's seat-count option, when it has one), the game's presets
// as buttons (one click fills the form), then, folded away, one control per option — a checkbox
// for a switch, a list for choices and short ranges, a number field for long ones — each with
// the server's help, the values it accepts and its default. A value the schema refuses is
// marked at its field with the server's own wording and the form is not sent (the parent asks
// optionsError). Values are canonical text; a value equal to its default is left out of the
// command (lobby/games.ts changedOptions).
import type { GameInfo, GameOption, OptionValues } from './games';
import { currentPreset, optionError, optionValues, presetValues } from './games';
import { t } from '../i18n';

interface Props {
  info: GameInfo;
  values: OptionValues;
  onChange: (values: OptionValues) => void;
  field: string; // prefix of the data-field names: "" (new table) or "challenge-"
}

const valueOf = (o: GameOption, values: OptionValues) => values[o.name] ?? o.default;
// Option names are the server's (`no_progress`); people read them with spaces.
const label = (o: GameOption) => o.name.replace(/_/g, ' ');

function OptionField({ o, value, set, field }: {
  o: GameOption; value: string; set: (v: string) => void; field: string }) {
  const name = `${field}option-${o.name}`;
  const about = `${name}-about`;
  const error = optionError(o, value);
  const hint = (
    <small id={about} class="option-about">
      {o.help}{o.help ? '. ' : ''}{t('lobby.optionAccepted', { accepted: o.accepted, default: o.default })}
    </small>
  );
  const refusal = error && (
    <small class="option-error" role="alert" data-error={o.name}>{error}</small>
  );
  let control;
  if (o.type === 'bool' && o.choices?.length === 2) {
    control = (
      <label>
        <input type="checkbox" data-field={name} aria-describedby={about}
          checked={value === o.choices[1]}
          onChange={(e) => set(o.choices![(e.target as HTMLInputElement).checked ? 1 : 0])} />{' '}
        {label(o)}
      </label>
    );
  } else if (optionValues(o).length > 0) {
    control = (
      <label>{label(o)}{' '}
        <select value={value} data-field={name} aria-describedby={about}
          onChange={(e) => set((e.target as HTMLSelectElement).value)}>
          {optionValues(o).map((c) => <option value={c}>{c}</option>)}
        </select>
      </label>
    );
  } else {
    // A text field that only suggests the number keyboard: a number input would drop what it
    // cannot parse ("3.3.", "abc") before the form sees it, and the refusal could not quote it.
    control = (
      <label>{label(o)}{' '}
        <input type="text" inputMode={o.type === 'int' ? 'numeric' : 'decimal'} size={8}
          value={value} data-field={name} aria-describedby={about} aria-invalid={error ? 'true' : undefined}
          onInput={(e) => set((e.target as HTMLInputElement).value)} />
      </label>
    );
  }
  return <div class={`option${error ? ' invalid' : ''}`} data-option={o.name}>{control}{hint}{refusal}</div>;
}

export function GameOptions({ info, values, onChange, field }: Props) {
  const seatOption = info.options.find((o) => o.name === info.seat_count_option);
  const others = info.options.filter((o) => o !== seatOption);
  const set = (name: string) => (value: string) => onChange({ ...values, [name]: value });
  const preset = currentPreset(info, values);
  return (
    <>
      {seatOption && (
        <label title={seatOption.help}>{t('lobby.players')}{' '}
          <select value={valueOf(seatOption, values)} data-field={`${field}players`}
            onChange={(e) => set(seatOption.name)((e.target as HTMLSelectElement).value)}>
            {optionValues(seatOption).map((n) => <option value={n}>{n}</option>)}
          </select>
        </label>
      )}
      {info.presets.length > 0 && (
        <div class="presets" role="group" aria-label={t('lobby.preset')} data-field={`${field}presets`}>
          {t('lobby.preset')}{' '}
          {info.presets.map((p) => (
            <button type="button" class="preset" data-preset={p.name} aria-pressed={preset === p.name}
              title={p.help} onClick={() => onChange(presetValues(info, p.name, values))}>
              {p.name}
            </button>
          ))}{' '}
          <span class="preset-current" data-field={`${field}preset`} data-preset={preset}>
            {preset ? info.presets.find((p) => p.name === preset)?.help : t('lobby.presetCustom')}
          </span>
        </div>
      )}
      {others.length > 0 && (
        // Keyed by game: another game starts folded again.
        <details key={info.name} class="game-options" data-field={`${field}options`}>
          <summary>{t('lobby.options')}</summary>
          {others.map((o) => (
            <OptionField o={o} value={valueOf(o, values)} set={set(o.name)} field={field} />
          ))}
        </details>
      )}
    </>
  );
}
