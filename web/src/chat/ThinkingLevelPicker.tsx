import { memo } from 'react';
import { ThinkingLevelNameSchema } from '../../../shared/protocol';

/*
 * The thinking level of the session's model, beside the model picker. The server clamps a level
 * to what the model supports (a model that does not reason stays "off"), and the picker always
 * shows the level the session state reports, never the one merely asked for.
 */

const NAMES: Record<string, string> = {
  off: 'Off',
  minimal: 'Minimal',
  low: 'Low',
  medium: 'Medium',
  high: 'High',
  xhigh: 'Extra high',
  max: 'Max',
};

/**
 * The picker's choices: the levels the model supports when the server says which (else every level
 * pi knows), in pi's order, and the current one should it be another.
 */
export function thinkingLevelChoices(
  current: string | null,
  supported?: readonly string[],
): { value: string; name: string }[] {
  const choices: { value: string; name: string }[] = ThinkingLevelNameSchema.options
    .filter((value) => !supported || supported.includes(value))
    .map((value) => ({
      value,
      name: NAMES[value] ?? value,
    }));
  if (current !== null && !choices.some((choice) => choice.value === current))
    choices.push({ value: current, name: current });
  return choices;
}

export const ThinkingLevelPicker = memo(function ThinkingLevelPicker({
  level,
  reasons,
  levels,
  canWrite,
  onLevel,
}: {
  /** The levels the session's model supports (undefined: not known). */
  levels?: readonly string[];
  /** The level in the session state; null before the session is open. */
  level: string | null;
  /** Whether the session's model reasons at all (undefined: not known). */
  reasons: boolean | undefined;
  canWrite: boolean;
  onLevel(level: string): void;
}) {
  return (
    <select
      aria-label="Thinking level"
      title={
        reasons === false
          ? 'This model does not reason: its thinking level stays off'
          : 'How much the model thinks before answering'
      }
      value={level ?? ''}
      disabled={!canWrite || level === null}
      onChange={(event) => onLevel(event.target.value)}
    >
      {thinkingLevelChoices(level, levels).map((choice) => (
        <option key={choice.value} value={choice.value}>
          {choice.name}
        </option>
      ))}
    </select>
  );
});
