import type { TreeNode } from '../../../shared/session-entries';
import type { ReadingMode } from '../state/reading-view';
import type { SummaryChoice } from '../tree/TreeToolbar';
import type { SessionView } from '../state/session-reducer';
import { ChatLog } from './ChatLog';
import type { ContextEditActions } from './ContextEditControls';
import { ReadingBannerFor } from './ReadingBanner';

const NO_SUMMARY: SummaryChoice = { mode: 'none', instructions: '' };

/**
 * The chat: the active path, or the branch being read with its banner (decision 076). Context
 * edits are offered on the active path only (an edit counts only on the branch it is written to).
 */
export function ChatPane(props: {
  /** The session as of now (the chat itself draws `reading.chatView`, which may lag behind). */
  view: SessionView | null;
  reading: ReadingMode;
  contextActions: ContextEditActions | undefined;
  /** The click rule on an entry: what "Continue here" does. */
  onNavigate(entry: TreeNode, summary: SummaryChoice): void;
  /** What the chat says while no session is shown. */
  empty: string;
}) {
  const { view, reading } = props;
  return (
    <>
      <ReadingBannerFor
        view={view}
        entryId={reading.entryId}
        onBack={reading.back}
        onContinue={(entry) => {
          reading.back();
          props.onNavigate(entry, NO_SUMMARY);
        }}
      />
      {reading.chatView && reading.chatView.sessionId === view?.sessionId ? (
        <ChatLog
          view={reading.chatView}
          contextActions={reading.entryId ? undefined : props.contextActions}
        />
      ) : (
        <div className="chat-log" role="log" aria-label="Conversation">
          <p className="chat-empty">{props.empty}</p>
        </div>
      )}
    </>
  );
}
