import { Fragment, memo, useLayoutEffect, useMemo, useRef } from 'react';
import { REVEAL_STEP, shownFor } from '../state/chat-window';
import { chatItems } from '../state/chat-items';
import { isContextEditable } from '../state/context-edits';
import type { ToolResultMessage } from '../../../shared/messages';
import type { SessionView, ToolRun } from '../state/session-reducer';
import { usePage, usePageStore } from '../state/use-page-store';
import type { ContextEditActions } from './ContextEditControls';
import { FirstSteps } from './FirstSteps';
import { MessageView } from './MessageView';
import { useChatReveal } from './use-chat-reveal';
import './context-marks.css';

interface ChatLogProps {
  view: SessionView;
  /** Present when this user may act in the session: messages offer context edits. */
  contextActions?: ContextEditActions | undefined;
  /** Puts an example prompt in the editor (absent for those who cannot send). */
  onExample?: ((text: string) => void) | undefined;
}

function runsFor(
  view: SessionView,
  message: SessionView['streaming'] | undefined,
): ToolRun[] | undefined {
  if (view.toolRuns.size === 0 || !message || message.role !== 'assistant') return undefined;
  const runs: ToolRun[] = [];
  for (const block of message.content) {
    if (block.type !== 'toolCall') continue;
    const run = view.toolRuns.get(block.id);
    if (run) runs.push(run);
  }
  return runs.length ? runs : undefined;
}

/** Whether the session runs on the demo model. */
function onDemoModel(view: SessionView): boolean {
  const { provider, modelId } = view.state;
  return view.models.some((m) => m.provider === provider && m.id === modelId && m.demo === true);
}

const HISTORY_ONLY = 'Only in history: not sent to the model';
const DIVIDER = 'Above: summarised by compaction — not sent to the model';

/**
 * The active path as a log; follows the bottom while the user has not scrolled up. Only the newest
 * messages are drawn until the user asks for earlier ones (the store's `chatWindow`, which the body loader also
 * reads, so revealed messages get their bodies fetched; until then they show as loading).
 */
export const ChatLog = memo(function ChatLog({ view, contextActions, onExample }: ChatLogProps) {
  const { byId, leafId, bodies, unsaved, streaming, contextEdits, compactions } = view;
  const items = useMemo(
    () =>
      chatItems({ ...view, byId, leafId, bodies, unsaved, streaming, contextEdits, compactions }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [byId, leafId, bodies, unsaved, streaming, contextEdits, compactions],
  );
  // Each tool call's line shows its result's status and duration.
  const toolResults = useMemo(() => {
    const results = new Map<string, ToolResultMessage>();
    for (const { message } of items)
      if (message?.role === 'toolResult') results.set(message.toolCallId, message);
    return results;
  }, [items]);
  const limit = usePage((state) => shownFor(state.chatWindow, view.sessionId));
  const { dispatch } = usePageStore();
  const hidden = Math.max(0, items.length - limit);
  const visible = hidden > 0 ? items.slice(hidden) : items;
  const log = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);

  useLayoutEffect(() => {
    const element = log.current;
    if (element && pinned.current) element.scrollTop = element.scrollHeight;
  });
  const entryIds = useMemo(() => items.map((item) => item.entryId), [items]);
  const { offPath } = useChatReveal({
    sessionId: view.sessionId,
    entryIds,
    limit,
    log,
    pinned,
    has: (id) => byId.has(id),
  });

  return (
    <div
      ref={log}
      className="chat-log"
      role="log"
      aria-label="Conversation"
      aria-live="polite"
      onScroll={(event) => {
        const element = event.currentTarget;
        pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < 40;
      }}
    >
      {items.length === 0 ? <FirstSteps demo={onDemoModel(view)} onExample={onExample} /> : null}
      {offPath ? (
        <p className="reveal-note" role="status">
          The match is on another branch: the graph shows it, marked.
        </p>
      ) : null}
      {hidden > 0 ? (
        <button
          type="button"
          className="show-earlier"
          onClick={() => {
            pinned.current = false;
            dispatch({ type: 'show_earlier', sessionId: view.sessionId });
          }}
        >
          Show {Math.min(hidden, REVEAL_STEP)} earlier messages ({hidden} hidden)
        </button>
      ) : null}
      {visible.map((item, i) => {
        const message = (
          <MessageView
            entryId={item.entryId}
            role={item.role}
            author={item.entryId ? view.authors.get(item.entryId) : undefined}
            message={item.message}
            streaming={item.streaming}
            unavailable={item.unavailable === true}
            runs={runsFor(view, item.message)}
            results={item.message?.role === 'assistant' ? toolResults : undefined}
            contextEdit={item.contextEdit}
            contextActions={
              item.entryId && !item.streaming && isContextEditable(item.role)
                ? contextActions
                : undefined
            }
          />
        );
        if (!item.historyOnly) return <Fragment key={item.key}>{message}</Fragment>;
        // What a compaction summarised: dimmed, and a divider where the model's context begins.
        const next = visible[i + 1];
        return (
          <Fragment key={item.key}>
            <div className="history-only" role="group" aria-label={HISTORY_ONLY}>
              {message}
            </div>
            {next && !next.historyOnly ? (
              <p className="context-divider" role="separator" aria-label={DIVIDER}>
                <span>{DIVIDER}</span>
              </p>
            ) : null}
          </Fragment>
        );
      })}
    </div>
  );
});
