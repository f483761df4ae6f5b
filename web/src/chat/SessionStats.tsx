import { useEffect, useRef, type RefObject } from 'react';
import type { SessionStats as Stats } from '../../../shared/session-stats-schema';
import type { ArborSocket } from '../socket/arbor-socket';
import { Modal } from '../ui/Modal';
import { formatCost, formatCount } from './session-stats-format';
import { useSessionStats } from './use-session-stats';

type Usage = Stats['session'];

interface SessionStatsProps {
  socket: ArborSocket;
  sessionId: string | null;
  /** The entry being read (reading mode), or null: the branch is the path to the leaf. */
  readingEntryId: string | null;
}

/** One table of figures: message counts, then tokens and cost, overall and per model. */
export function UsageTable({ caption, usage }: { caption: string; usage: Usage }) {
  const t = usage.tokens;
  return (
    <table className="session-stats-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Model</th>
          <th scope="col">Input (tokens)</th>
          <th scope="col">Output (tokens)</th>
          <th scope="col">Cache read (tokens)</th>
          <th scope="col">Cache write (tokens)</th>
          <th scope="col">Total (tokens)</th>
          <th scope="col">Cost (USD)</th>
        </tr>
      </thead>
      <tbody>
        {usage.byModel.map((row) => (
          <tr key={row.key}>
            <th scope="row">{row.key}</th>
            <td>{formatCount(row.input)}</td>
            <td>{formatCount(row.output)}</td>
            <td>{formatCount(row.cacheRead)}</td>
            <td>{formatCount(row.cacheWrite)}</td>
            <td>{formatCount(row.total)}</td>
            <td>{formatCost(row.cost)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">All models</th>
          <td data-stat="input">{formatCount(t.input)}</td>
          <td data-stat="output">{formatCount(t.output)}</td>
          <td data-stat="cacheRead">{formatCount(t.cacheRead)}</td>
          <td data-stat="cacheWrite">{formatCount(t.cacheWrite)}</td>
          <td data-stat="total">{formatCount(t.total)}</td>
          <td data-stat="cost">{formatCost(usage.cost)}</td>
        </tr>
        <tr>
          <th scope="row">Messages</th>
          <td colSpan={6}>
            {formatCount(usage.totalMessages)} (user {formatCount(usage.userMessages)}, assistant{' '}
            {formatCount(usage.assistantMessages)}, tool calls {formatCount(usage.toolCalls)}, tool
            results {formatCount(usage.toolResults)})
          </td>
        </tr>
      </tfoot>
    </table>
  );
}

/** The "Statistics" dialog: the whole session's figures beside this branch's. */
export function SessionStats({
  socket,
  sessionId,
  readingEntryId,
  onClose,
  returnFocusTo,
}: SessionStatsProps & { onClose(): void; returnFocusTo?: RefObject<HTMLElement | null> }) {
  const body = useRef<HTMLDivElement>(null);
  const state = useSessionStats(socket, sessionId, readingEntryId, true);
  useEffect(() => body.current?.focus(), []);
  return (
    <Modal title="Session statistics" onClose={onClose} returnFocusTo={returnFocusTo}>
      <div
        className="session-stats"
        ref={body}
        tabIndex={0}
        role="region"
        aria-label="Statistics figures"
      >
        {state.status === 'loading' ? <p role="status">Loading…</p> : null}
        {state.status === 'failed' ? <p role="alert">{state.message}</p> : null}
        {state.status === 'ready' ? (
          <>
            <UsageTable caption="Whole session" usage={state.stats.session} />
            <UsageTable
              caption={readingEntryId ? 'Branch being read' : 'This branch'}
              usage={state.stats.branch}
            />
          </>
        ) : null}
      </div>
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  );
}
