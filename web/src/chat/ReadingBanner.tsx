import { memo } from 'react';
import type { TreeNode } from '../../../shared/session-entries';
import { activePathIds } from '../state/active-path';
import type { SessionView } from '../state/session-reducer';
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

/** The banner for the entry being read in `view`, or nothing when the chat shows the active path. */
export function ReadingBannerFor({
  view,
  entryId,
  onBack,
  onContinue,
}: {
  view: SessionView | null;
  entryId: string | null;
  onBack(): void;
  onContinue(entry: TreeNode): void;
}) {
  const entry = entryId ? view?.byId.get(entryId) : undefined;
  if (!view || !entry) return null;
  return (
    <ReadingBanner
      preview={entry.preview.slice(0, 80)}
      onCurrentBranch={activePathIds(view).includes(entry.id)}
      canWrite={view.access.canWrite}
      onBack={onBack}
      onContinue={() => onContinue(entry)}
    />
  );
}
