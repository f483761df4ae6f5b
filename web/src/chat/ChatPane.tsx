import type { TreeNode } from '../../../shared/session-entries';
import { shownSessionId } from '../state/page-selectors';
import { usePage } from '../state/use-page-store';
import type { SummaryChoice } from '../tree/TreeToolbar';
import { ChatLog } from './ChatLog';
import type { ContextEditActions } from './ContextEditControls';
import { ReadingBannerFor } from './ReadingBanner';
import { useChatView } from './use-chat-view';

const NO_SUMMARY: SummaryChoice = { mode: 'none', instructions: '' };

/**
 * The chat: the active path, or the branch being read with its banner (decision 076), read from
 * the page store. Context edits are offered on the active path only (an edit counts only on the
 * branch it is written to).
 */
export function ChatPane(props: {
  contextActions: ContextEditActions | undefined;
  /** Back to the current branch. */
  onBack(): void;
  /** The click rule on an entry: what "Continue here" does. */
  onNavigate(entry: TreeNode, summary: SummaryChoice): void;
  /** Puts an example prompt in the editor (absent for those who cannot send). */
  onExample?: ((text: string) => void) | undefined;
}) {
  const { chatView, entryId } = useChatView();
  const sessionId = usePage(shownSessionId);
  const opening = usePage((state) => state.openSessionId !== null);
  return (
    <>
      <ReadingBannerFor
        entryId={entryId}
        onBack={props.onBack}
        onContinue={(entry) => {
          props.onBack();
          props.onNavigate(entry, NO_SUMMARY);
        }}
      />
      {chatView && chatView.sessionId === sessionId ? (
        <ChatLog
          view={chatView}
          contextActions={entryId ? undefined : props.contextActions}
          onExample={props.onExample}
        />
      ) : (
        <div className="chat-log" role="log" aria-label="Conversation">
          <p className="chat-empty">{opening ? 'Opening the session…' : 'No session open.'}</p>
        </div>
      )}
    </>
  );
}
