/** The list of blueprints, with the chosen one's description and framework requirement. */
import type { Generator } from '../../api/portal-client';

export function BlueprintPicker({
  generators,
  value,
  onChange,
  disabled,
}: {
  generators: Generator[];
  value: string;
  onChange: (name: string) => void;
  disabled?: boolean;
}) {
  const chosen = generators.find((g) => g.name === value);
  return (
    <div className="field">
      <label htmlFor="blueprint">Blueprint</label>
      <select
        id="blueprint"
        aria-describedby="blueprint-description"
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
      >
        {generators.map((g) => (
          <option key={g.name} value={g.name}>
            {g.name} {g.version}
          </option>
        ))}
      </select>
      <small id="blueprint-description" className="hint">
        {chosen?.description}
        {chosen?.sinceVersion ? ` (framework ${chosen.sinceVersion} or newer)` : ''}
      </small>
    </div>
  );
}
