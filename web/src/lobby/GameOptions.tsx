// The option fields of a game in the lobby's forms, built from its schema in /api/games: the
// number of players first (the game's seat-count option, when it has one), then, folded away,
// a ruleset (preset) and one control per option — a checkbox for a switch, a list for choices
// and short ranges, a number field for long ones. Values are canonical text; a value equal to
// its default is left out of the command (lobby/games.ts changedOptions).
import type { GameInfo, GameOption, OptionValues } from './games';
import { optionValues } from './games';
import { t } from '../i18n';

interface Props {
  info: GameInfo;
  values: OptionValues;
  onChange: (values: OptionValues) => void;
  field: string; // prefix of the data-field names: "" (new table) or "challenge-"
}

const valueOf = (o: GameOption, values: OptionValues) => values[o.name] ?? o.default;

// The preset whose values the form holds (every option at the preset's value or its default).
function currentPreset(info: GameInfo, values: OptionValues): string {
  const preset = info.presets.find((p) => info.options.every(
    (o) => o.name === info.seat_count_option || valueOf(o, values) === (p.values[o.name] ?? o.default)));
  return preset?.name ?? '';
}

function OptionField({ o, value, set, field }: {
  o: GameOption; value: string; set: (v: string) => void; field: string }) {
  const name = `${field}option-${o.name}`;
  if (o.type === 'bool' && o.choices?.length === 2) {
    return (
      <label title={o.help}>
        <input type="checkbox" data-field={name} checked={value === o.choices[1]}
          onChange={(e) => set(o.choices![(e.target as HTMLInputElement).checked ? 1 : 0])} />{' '}
        {o.name}
      </label>
    );
  }
  const choices = optionValues(o);
  if (choices.length > 0) {
    return (
      <label title={o.help}>{o.name}{' '}
        <select value={value} data-field={name}
          onChange={(e) => set((e.target as HTMLSelectElement).value)}>
          {choices.map((c) => <option value={c}>{c}</option>)}
        </select>
      </label>
    );
  }
  return (
    <label title={o.help}>{o.name}{' '}
      <input type="number" value={value} data-field={name} min={o.min} max={o.max} step={o.step ?? 1}
        onInput={(e) => set((e.target as HTMLInputElement).value)} />
    </label>
  );
}

export function GameOptions({ info, values, onChange, field }: Props) {
  const seatOption = info.options.find((o) => o.name === info.seat_count_option);
  const others = info.options.filter((o) => o !== seatOption);
  const set = (name: string) => (value: string) => onChange({ ...values, [name]: value });
  const preset = currentPreset(info, values);
  const choosePreset = (name: string) => {
    const p = info.presets.find((x) => x.name === name);
    if (!p) return;
    const next: OptionValues = { ...p.values };
    if (seatOption && values[seatOption.name] !== undefined) {
      next[seatOption.name] = values[seatOption.name];
    }
    onChange(next);
  };
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
      {others.length > 0 && (
        <details class="game-options" data-field={`${field}options`}>
          <summary>{t('lobby.options')}</summary>
          {info.presets.length > 0 && (
            <label>{t('lobby.preset')}{' '}
              <select value={preset} data-field={`${field}preset`}
                onChange={(e) => choosePreset((e.target as HTMLSelectElement).value)}>
                {preset === '' && <option value="">{t('lobby.presetCustom')}</option>}
                {info.presets.map((p) => <option value={p.name} title={p.help}>{p.name}</option>)}
              </select>
            </label>
          )}
          {others.map((o) => (
            <OptionField o={o} value={valueOf(o, values)} set={set(o.name)} field={field} />
          ))}
        </details>
      )}
    </>
  );
}
