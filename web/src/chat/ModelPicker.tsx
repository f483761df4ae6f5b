import type { ModelSummary } from '../../../shared/protocol';

interface ModelPickerProps {
  modelId: string | null;
  models: ModelSummary[];
  disabled: boolean;
  onModel(modelId: string): void;
}

/**
 * The session's model. A model the server holds no API key for says so in its option and, when
 * picked, beside the picker, with the reason as a tooltip: the user learns it before sending. It
 * may still be picked (docs/decisions/075-graph-marks-and-follow.md).
 */
export function ModelPicker({ modelId, models, disabled, onModel }: ModelPickerProps) {
  const current = models.find((model) => model.id === modelId);
  return (
    <span className="model-picker">
      <select
        aria-label="Model"
        value={modelId ?? ''}
        disabled={disabled}
        title={current?.noKey}
        onChange={(event) => onModel(event.target.value)}
      >
        {models.map((model) => (
          <option key={model.id} value={model.id} title={model.noKey}>
            {model.noKey ? `${model.name} (no key)` : model.name}
          </option>
        ))}
        {modelId !== null && !current ? <option value={modelId}>{modelId}</option> : null}
      </select>
      {current?.noKey ? (
        <span className="model-no-key" role="note" title={current.noKey}>
          no key
        </span>
      ) : null}
    </span>
  );
}
