import type { TreeFilter } from '../graph/entry-kinds';

export interface SummaryChoice {
  /** What happens to the branch being left: nothing, a summary, a summary with instructions. */
  mode: 'none' | 'default' | 'custom';
  instructions: string;
}

interface TreeToolbarProps {
  filter: TreeFilter;
  onFilter(filter: TreeFilter): void;
  summary: SummaryChoice;
  onSummary(choice: SummaryChoice): void;
  onFitLeaf(): void;
  onFitAll(): void;
  readOnly: boolean;
  count: number;
}

const FILTER_NAMES: Record<TreeFilter, string> = {
  all: 'All',
  'no-tools': 'No tools',
  'user-only': 'User only',
  labelled: 'Labelled',
};

/** Filters, fit buttons, and the summary choice applied when a click leaves a branch. */
export function TreeToolbar(props: TreeToolbarProps) {
  const { summary } = props;
  return (
    <div className="tree-toolbar">
      <label>
        <span className="visually-hidden">Filter</span>
        <select
          aria-label="Filter"
          value={props.filter}
          onChange={(event) => props.onFilter(event.target.value as TreeFilter)}
        >
          {(Object.keys(FILTER_NAMES) as TreeFilter[]).map((filter) => (
            <option key={filter} value={filter}>
              {FILTER_NAMES[filter]}
            </option>
          ))}
        </select>
      </label>
      <button type="button" onClick={props.onFitLeaf}>
        Fit to leaf
      </button>
      <button type="button" onClick={props.onFitAll}>
        Fit all
      </button>
      {props.readOnly ? null : (
        <label className="summary-choice">
          <span>Leaving a branch:</span>
          <select
            aria-label="Summary when leaving a branch"
            value={summary.mode}
            onChange={(event) =>
              props.onSummary({ ...summary, mode: event.target.value as SummaryChoice['mode'] })
            }
          >
            <option value="none">No summary</option>
            <option value="default">Summarize</option>
            <option value="custom">Summarize with instructions</option>
          </select>
        </label>
      )}
      {!props.readOnly && summary.mode === 'custom' ? (
        <input
          type="text"
          aria-label="Summary instructions"
          placeholder="Focus the summary on…"
          value={summary.instructions}
          onChange={(event) => props.onSummary({ ...summary, instructions: event.target.value })}
        />
      ) : null}
      <span className="tree-count" aria-live="off">
        {props.count} nodes
      </span>
    </div>
  );
}
