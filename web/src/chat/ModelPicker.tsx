import './model-picker.css';
import {
  Button,
  ComboBox,
  Header,
  Input,
  ListBox,
  ListBoxItem,
  ListBoxSection,
  Popover,
  Text,
} from 'react-aria-components';
import type { ModelSummary } from '../../../shared/protocol';
import { type ModelRef } from '../../../shared/model-ref';
import { labelOf, refOf, type ModelSearch } from './use-model-search';

interface ModelPickerProps {
  /** The session's model, as pi names it. */
  model: ModelRef | null;
  /** The models to choose from for what is typed (useModelSearch), and the session's model's summary. */
  search: ModelSearch;
  query: string;
  onQuery(query: string): void;
  disabled: boolean;
  /** Why the session's model cannot be used (the server's words), if so. */
  problem?: string | undefined;
  onModel(model: ModelRef): void;
}

/** An option's key: `provider/id`, each part URI-encoded (a provider's id may hold a `/`). */
export const keyOf = (ref: ModelRef) =>
  `${encodeURIComponent(ref.provider)}/${encodeURIComponent(ref.modelId)}`;

const tokens = (n: number) =>
  n >= 1_000_000 ? `${+(n / 1_000_000).toFixed(1)}M` : `${Math.round(n / 1000)}k`;
const dollars = (n: number) => `$${+n.toFixed(2)}`;

/** The line under a model's name: its pair, window, price per million tokens, key status. */
export function detailsOf(model: ModelSummary): string {
  const parts = [`${model.provider}/${model.id}`, `${tokens(model.contextWindow)} context`];
  // A price of nothing is a local or unpriced model: no figure rather than a false "$0".
  if (model.price && (model.price.input > 0 || model.price.output > 0))
    parts.push(`${dollars(model.price.input)} / ${dollars(model.price.output)} per M tokens`);
  if (model.noKey) parts.push('no key');
  return parts.join(' · ');
}

/**
 * The session's model: a combobox named "Model" that takes typing (React Aria's, so focus, keys
 * and the listbox's semantics are the library's). Empty, it lists the models the server offers,
 * grouped by provider; typed words narrow them and search the server's whole catalog (pi's ~1,300
 * models), each with its window, price and whether a key is set. A model without a key may still be
 * picked: the note beside says so, with the reason. A session whose recorded model this server
 * does not know keeps it, shown as "not configured here" with the reason.
 */
export function ModelPicker(props: ModelPickerProps) {
  const { model, search, query, disabled, problem } = props;
  const current = search.find(model);
  const unknown = model !== null && !current && !search.resolving && problem !== undefined;
  const shown = current ? labelOf(current) : model ? `${model.provider}/${model.modelId}` : '';
  const recentKeys = new Set(search.recent.map((m) => keyOf(refOf(m))));
  const rest = search.results.filter((m) => !recentKeys.has(keyOf(refOf(m))));
  const providers = [...new Set(rest.map((m) => m.provider))];
  // The field is the combobox's own: it shows the picked model's label, and what is typed is
  // reported for the search. A model the collection lacks (being looked up) shows as its pair.
  return (
    <span className="model-picker">
      <ComboBox
        aria-label="Model"
        className="model-combobox"
        isDisabled={disabled}
        // The list is narrowed here and on the server, not by the combobox's own filter.
        defaultFilter={() => true}
        menuTrigger="focus"
        allowsEmptyCollection
        defaultInputValue={shown}
        onInputChange={props.onQuery}
        selectedKey={model ? keyOf(model) : null}
        onSelectionChange={(key) => {
          const chosen = search.results.find((m) => keyOf(refOf(m)) === key);
          if (chosen) props.onModel(refOf(chosen));
        }}
      >
        <Input
          className="model-input"
          placeholder="Choose a model"
          title={current?.noKey ?? (unknown ? problem : undefined)}
        />
        <Button className="model-open" aria-label="Show models">
          ▾
        </Button>
        {/* Non-modal, as a combobox wants: the field stays where assistive technology reads it. */}
        <Popover className="model-popover" placement="bottom start" isNonModal>
          <ListBox className="model-list" renderEmptyState={() => emptyText(query, search)}>
            {search.recent.length > 0 ? (
              <ListBoxSection id="recent" className="model-group">
                <Header className="model-group-name">Recent</Header>
                {search.recent.map((m) => (
                  <ModelOption key={keyOf(refOf(m))} model={m} />
                ))}
              </ListBoxSection>
            ) : null}
            {providers.map((provider) => (
              <ListBoxSection key={provider} id={`provider:${provider}`} className="model-group">
                <Header className="model-group-name">{provider}</Header>
                {rest
                  .filter((m) => m.provider === provider)
                  .map((m) => (
                    <ModelOption key={keyOf(refOf(m))} model={m} />
                  ))}
              </ListBoxSection>
            ))}
          </ListBox>
          {search.total !== undefined && search.total > search.results.length ? (
            <p className="model-more" role="status">
              {search.total} models match; type more to narrow them.
            </p>
          ) : null}
        </Popover>
      </ComboBox>
      {unknown ? (
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

function emptyText(query: string, search: ModelSearch): string {
  if (search.searching) return 'Searching…';
  return query.trim() ? `No model matches “${query.trim()}”.` : 'No models.';
}

/** One model in the list: its name, and its pair, window, price and key status. */
function ModelOption({ model }: { model: ModelSummary }) {
  return (
    <ListBoxItem id={keyOf(refOf(model))} textValue={labelOf(model)} className="model-option">
      <Text slot="label" className="model-option-name">
        {model.name}
      </Text>
      <Text slot="description" className="model-option-details">
        {detailsOf(model)}
      </Text>
    </ListBoxItem>
  );
}
