import type { ModelSummary } from '../../../shared/protocol';

interface ModelPickerProps {
  modelId: string | null;
  models: ModelSummary[];
  disabled: boolean;
  /** Why the session's model cannot be used (the server's words), if so. */
  problem?: string | undefined;
  onModel(modelId: string): void;
}

/**
 * The session's model. A model the server holds no API key for says so in its option and, when
 * picked, beside the picker, with the reason as a tooltip: the user learns it before sending. It
 * may still be picked (docs/decisions/075-graph-marks-and-follow.md). A session whose recorded
 * model this server does not know keeps it: it shows as "not configured here", with the reason.
 */
export function ModelPicker({ modelId, models, disabled, problem, onModel }: ModelPickerProps) {
  const current = models.find((model) => model.id === modelId);
  const unknown = modelId !== null && !current;
  return (
    <span className="model-picker">
      <select
        aria-label="Model"
        value={modelId ?? ''}
        disabled={disabled}
        title={current?.noKey ?? (unknown ? problem : undefined)}
        onChange={(event) => onModel(event.target.value)}
      >
        {models.map((model) => (
          <option key={model.id} value={model.id} title={model.noKey}>
            {model.noKey ? `${model.name} (no key)` : model.name}
          </option>
        ))}
        {unknown ? (
          <option value={modelId} title={problem}>
            {problem ? `${modelId} (not configured here)` : modelId}
          </option>
        ) : null}
      </select>
      {unknown && problem ? (
        <span className="model-no-key" role="note" title={problem}>
          not configured here
        </span>
      ) : null}
      {current?.noKey ? (
        <span className="model-no-key" role="note" title={current.noKey}>
          no key
        </span>
      ) : null}
    </span>
  );
}
