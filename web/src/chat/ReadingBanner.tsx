import { memo } from 'react';
import type { TreeNode } from '../../../shared/session-entries';
import { activePathIds } from '../state/active-path';
import { openView } from '../state/page-selectors';
import { usePage } from '../state/use-page-store';
import './context-marks.css';

interface ReadingBannerProps {
  /** What the read entry says, to tell the reader where they are. */
  preview: string;
  /** Whether the read entry lies on the current branch (an earlier point of it). */
  onCurrentBranch: boolean;
  /** Whether this user may act in the session: only then is "Continue here" offered. */
  canWrite: boolean;
  onBack(): void;
  onContinue(): void;
}

/**
 * Says that the chat shows another branch than the session's, with the way back and, for those
 * who may act, a one-click "Continue here" (the click rule on that entry; decision 076).
 */
export const ReadingBanner = memo(function ReadingBanner(props: ReadingBannerProps) {
  return (
    <div className="reading-banner" role="region" aria-label="Reading mode">
      <p className="reading-banner-text">
        <strong>
          {props.onCurrentBranch
            ? 'Reading an earlier point of this branch'
            : 'Reading another branch'}
        </strong>
        {props.preview ? <span className="reading-banner-at"> — at “{props.preview}”</span> : null}
        <span className="reading-banner-note">
          {props.canWrite
            ? ' The session stays where it is until you continue here.'
            : ' You may read this session but not act in it: the session stays where it is.'}
        </span>
      </p>
      <div className="reading-banner-actions">
        <button type="button" onClick={props.onBack}>
          Back to the current branch
        </button>
        {props.canWrite ? (
          <button type="button" className="primary" onClick={props.onContinue}>
            Continue here
          </button>
        ) : null}
      </div>
    </div>
  );
});

/**
 * The banner for the entry being read in the open session (read from the page store), or nothing
 * when the chat shows the active path.
 */
export function ReadingBannerFor({
  entryId,
  onBack,
  onContinue,
}: {
  entryId: string | null;
  onBack(): void;
  onContinue(entry: TreeNode): void;
}) {
  const entry = usePage((state) => (entryId ? openView(state)?.byId.get(entryId) : undefined));
  const onCurrentBranch = usePage((state) => {
    const view = openView(state);
    return view !== null && entryId !== null && activePathIds(view).includes(entryId);
  });
  const canWrite = usePage((state) => openView(state)?.access.canWrite ?? false);
  if (!entry) return null;
  return (
    <ReadingBanner
      preview={entry.preview.slice(0, 80)}
      onCurrentBranch={onCurrentBranch}
      canWrite={canWrite}
      onBack={onBack}
      onContinue={() => onContinue(entry)}
    />
  );
}
