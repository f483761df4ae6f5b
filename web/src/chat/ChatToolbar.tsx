import { memo, useCallback, useRef, useState } from 'react';
import type { ModelRef } from '../../../shared/model-ref';
import type { ModelSummary } from '../../../shared/protocol';
import { useSessionTitle } from '../sessions/use-session-title';
import { pathHasPrompt } from '../state/active-path';
import { openView, readEntryId, shownSessionId } from '../state/page-selectors';
import { usePage } from '../state/use-page-store';
import { ModelPicker } from './ModelPicker';
import { useModelSearch, useRecentModels } from './use-model-search';
import { ContextLegend } from './ContextLegend';
import { ThinkingLevelPicker } from './ThinkingLevelPicker';
import { SessionStats } from './SessionStats';
import { CompactDialog } from './CompactDialog';
import { SessionMenu } from './SessionMenu';
import { ShareDialog } from './ShareDialog';
import type { ArborSocket } from '../socket/arbor-socket';

interface ChatToolbarProps {
  canWrite: boolean;
  canCreate: boolean;
  /** A viewer's page: the settings shown as text, and no control that could never work. */
  readOnly: boolean;
  onModel(model: ModelRef): void;
  onThinkingLevel(level: string): void;
  onCompact(instructions?: string): void;
  onFork(): void;
  onClone(): void;
  onNew(): void;
  /** How many messages of the path a compaction summarised (a legend beside the meter says so). */
  summarised?: number;
  /** For the Statistics dialog: the socket it asks on. */
  socket: ArborSocket;
  /** Where a failure of the share dialog is said. */
  report(error: unknown): void;
}

const NO_MODELS: ModelSummary[] = [];

function compactNumber(value: number): string {
  if (value >= 1_000_000) return `${(value / 1_000_000).toFixed(1)}M`;
  if (value >= 1000) return `${(value / 1000).toFixed(1)}k`;
  return String(value);
}

/** The model and thinking level as a viewer sees them: what the session uses, not a picker. */
function ReadOnlySettings({ model, level }: { model: string; level: string }) {
  return (
    <span className="read-only-settings">
      <span title="Model">{model}</span>
      {level ? <span title="Thinking level">thinking: {level}</span> : null}
    </span>
  );
}

/**
 * Session controls: model, thinking level, context meter and cost, compact, fork, clone, new. What
 * they show of the open session is read from the page store.
 */
export const ChatToolbar = memo(function ChatToolbar(props: ChatToolbarProps) {
  const title = useSessionTitle();
  const state = usePage((page) => openView(page)?.state ?? null);
  const models = usePage((page) => openView(page)?.models ?? NO_MODELS);
  const compactingNow = usePage((page) => openView(page)?.compacting ?? null);
  const sessionId = usePage(shownSessionId);
  const readingEntryId = usePage(readEntryId);
  const [dialog, setDialog] = useState<'compact' | 'statistics' | 'share' | null>(null);
  const menuButton = useRef<HTMLButtonElement>(null);
  // A dialog opened from the menu gives focus back to the menu's button when it closes.
  const closeDialog = useCallback(() => setDialog(null), []);
  const usage = state?.contextUsage;
  const tokens = usage?.tokens ?? 0;
  const window = usage?.contextWindow ?? 0;
  const busy = state ? state.isStreaming || state.isCompacting : true;
  // Nothing to compact before the first prompt: the button says so by being off.
  const hasPrompt = usePage((page) => {
    const view = openView(page);
    return view ? pathHasPrompt(view) : false;
  });
  const sessionModel = state ? { provider: state.provider, modelId: state.modelId } : null;
  const [modelQuery, setModelQuery] = useState('');
  const recentModels = useRecentModels(sessionModel);
  const modelSearch = useModelSearch(models, modelQuery, sessionModel, recentModels);
  const model = modelSearch.find(sessionModel);
  const compacting = compactingNow ? (
    <span className="badge" role="status">
      Compacting ({compactingNow})…
    </span>
  ) : null;
  const acts = !props.readOnly;
  return (
    <div className="chat-toolbar">
      <div className="chat-toolbar-row chat-toolbar-head">
        <h1 className="session-title" title={title}>
          {title}
        </h1>
        {sessionId ? (
          <SessionMenu
            buttonRef={menuButton}
            sessionId={sessionId}
            compact={
              acts
                ? {
                    disabled: !props.canWrite
                      ? 'You may not change this session'
                      : busy
                        ? 'Wait for the run to end'
                        : hasPrompt
                          ? null
                          : 'Nothing to compact yet: send a prompt first',
                    run: () => setDialog('compact'),
                  }
                : undefined
            }
            fork={acts && props.canCreate && state ? props.onFork : undefined}
            clone={acts && props.canCreate && state ? props.onClone : undefined}
            statistics={() => setDialog('statistics')}
            share={() => setDialog('share')}
          />
        ) : null}
        {acts ? (
          <button type="button" disabled={!props.canCreate} onClick={props.onNew}>
            New session
          </button>
        ) : null}
      </div>
      <div className="chat-toolbar-row">
        {props.readOnly ? (
          <ReadOnlySettings
            model={model?.name ?? state?.modelId ?? ''}
            level={state?.thinkingLevel ?? ''}
          />
        ) : (
          <>
            <ModelPicker
              model={sessionModel}
              search={modelSearch}
              query={modelQuery}
              onQuery={setModelQuery}
              problem={state?.modelProblem}
              disabled={!props.canWrite || !state}
              onModel={props.onModel}
            />
            <ThinkingLevelPicker
              level={state?.thinkingLevel ?? null}
              reasons={model?.reasoning}
              levels={model?.thinkingLevels}
              canWrite={props.canWrite}
              onLevel={props.onThinkingLevel}
            />
          </>
        )}
        <span
          className="context-meter"
          title={
            usage?.estimated
              ? 'Context used by the next request (estimated: no answer since the compaction)'
              : 'Context used by the next request'
          }
        >
          <meter
            aria-label="Context used"
            min={0}
            max={window || 1}
            value={Math.min(tokens, window || 1)}
            high={(window || 1) * 0.8}
          />
          <span>
            {usage?.tokens === null
              ? '?'
              : `${usage?.estimated ? '~' : ''}${compactNumber(tokens)}`}{' '}
            / {compactNumber(window)} tokens
          </span>
        </span>
        <ContextLegend summarised={props.summarised ?? 0} />
        <span className="cost" title="Cost of this session">
          ${(state?.cost ?? 0).toFixed(4)}
        </span>
        {compacting}
      </div>
      {dialog === 'compact' ? (
        <CompactDialog
          onCompact={props.onCompact}
          onClose={closeDialog}
          returnFocusTo={menuButton}
        />
      ) : null}
      {dialog === 'statistics' ? (
        <SessionStats
          socket={props.socket}
          sessionId={sessionId}
          readingEntryId={readingEntryId}
          onClose={closeDialog}
          returnFocusTo={menuButton}
        />
      ) : null}
      {dialog === 'share' && sessionId ? (
        <ShareDialog
          sessionId={sessionId}
          canShare={props.canWrite}
          report={props.report}
          onClose={closeDialog}
          returnFocusTo={menuButton}
        />
      ) : null}
    </div>
  );
});
