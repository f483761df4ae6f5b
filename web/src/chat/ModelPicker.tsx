import type { ModelSummary } from '../../../shared/protocol';
import { sameModel, type ModelRef } from '../../../shared/model-ref';

interface ModelPickerProps {
  /** The session's model, as pi names it. */
  model: ModelRef | null;
  models: ModelSummary[];
  disabled: boolean;
  /** Why the session's model cannot be used (the server's words), if so. */
  problem?: string | undefined;
  onModel(model: ModelRef): void;
}

/** The option value of the session's recorded model when the server does not list it. */
const RECORDED = 'recorded';

const refOf = (model: ModelSummary): ModelRef => ({ provider: model.provider, modelId: model.id });

/** An option's value: `provider/id`, each part URI-encoded (a provider's id may hold a `/`). */
const valueOf = (ref: ModelRef) =>
  `${encodeURIComponent(ref.provider)}/${encodeURIComponent(ref.modelId)}`;

/**
 * The session's model, grouped by provider: the same id may come from several providers (a
 * gateway, a cloud, the maker), and a model is the pair. A model the server holds no API key for
 * says so in its option and, when picked, beside the picker, with the reason as a tooltip: the
 * user learns it before sending. It may still be picked (docs/decisions/075-graph-marks-and-follow.md).
 * A session whose recorded model this server does not know keeps it: it shows as "not configured
 * here", with the reason.
 */
export function ModelPicker({ model, models, disabled, problem, onModel }: ModelPickerProps) {
  const current = model ? models.find((m) => sameModel(refOf(m), model)) : undefined;
  const unknown = model !== null && !current;
  const providers = [...new Set(models.map((m) => m.provider))];
  return (
    <span className="model-picker">
      <select
        aria-label="Model"
        value={current ? valueOf(refOf(current)) : unknown ? RECORDED : ''}
        disabled={disabled}
        title={current?.noKey ?? (unknown ? problem : undefined)}
        onChange={(event) => {
          const chosen = models.find((m) => valueOf(refOf(m)) === event.target.value);
          if (chosen) onModel(refOf(chosen));
        }}
      >
        {providers.map((provider) => (
          <optgroup key={provider} label={provider}>
            {models.map((m) =>
              m.provider === provider ? (
                <option key={m.id} value={valueOf(refOf(m))} title={m.noKey}>
                  {m.noKey ? `${m.name} (no key)` : m.name}
                </option>
              ) : null,
            )}
          </optgroup>
        ))}
        {unknown ? (
          <option value={RECORDED} title={problem}>
            {problem
              ? `${model.provider}/${model.modelId} (not configured here)`
              : `${model.provider}/${model.modelId}`}
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
