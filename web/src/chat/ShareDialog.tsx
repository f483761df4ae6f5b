import { useCallback, useEffect, useState, type RefObject } from 'react';
import type { ShareLink } from '../../../shared/rest-shapes';
import { createShare, listShares, revokeShare } from '../api/rest';
import { openView, readEntryId } from '../state/page-selectors';
import { usePage } from '../state/use-page-store';
import { Modal } from '../ui/Modal';
import './share-dialog.css';

/*
 * The session's downloads (its JSONL file, an HTML page of the active path or of the whole tree)
 * and its share links (docs/decisions/088-export-and-share.md).
 */

function absolute(url: string): string {
  return new URL(url, window.location.origin).href;
}

/** Where the session's downloads are: its JSONL file, and HTML pages of its path or whole tree. */
export function exportUrls(sessionId: string) {
  const base = `/api/sessions/${encodeURIComponent(sessionId)}`;
  return {
    jsonl: `${base}/download`,
    pathHtml: `${base}/export.html?scope=path`,
    treeHtml: `${base}/export.html?scope=all`,
  };
}

/** The "Share links" dialog of the open session. */
export function ShareDialog({
  sessionId,
  canShare,
  report,
  onClose,
  returnFocusTo,
}: {
  sessionId: string;
  canShare: boolean;
  report(error: unknown): void;
  onClose(): void;
  returnFocusTo?: RefObject<HTMLElement | null>;
}) {
  // A new link pins the entry being read, else the leaf.
  const entryId = usePage((state) => readEntryId(state) ?? openView(state)?.leafId ?? null);
  const [links, setLinks] = useState<ShareLink[] | null>(null);
  const [copied, setCopied] = useState<string | null>(null);

  const refresh = useCallback(() => {
    listShares(sessionId).then(setLinks, report);
  }, [sessionId, report]);
  useEffect(refresh, [refresh]);
  const copy = (link: ShareLink) => {
    void navigator.clipboard
      ?.writeText(absolute(link.url))
      .then(() => setCopied(link.token))
      .catch(() => setCopied(null));
  };

  return (
    <Modal title="Share links" onClose={onClose} returnFocusTo={returnFocusTo}>
      <p>
        A link opens this session read-only for users of this Arbor, at the entry shown when it was
        made. It grants nothing else.
      </p>
      {links === null ? (
        <p>Loading…</p>
      ) : links.length === 0 ? (
        <p>No links yet.</p>
      ) : (
        <ul className="share-links" aria-label="Links to this session">
          {links.map((link) => (
            <li key={link.token}>
              <input
                readOnly
                aria-label={`Link by ${link.createdBy}`}
                value={absolute(link.url)}
                onFocus={(event) => event.currentTarget.select()}
              />
              <span>
                by {link.createdBy}, {new Date(link.createdAt).toLocaleString()}
              </span>
              <button type="button" onClick={() => copy(link)}>
                {copied === link.token ? 'Copied' : 'Copy link'}
              </button>
              {link.mayRevoke ? (
                <button type="button" onClick={() => revokeShare(link.token).then(refresh, report)}>
                  Revoke
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <div className="modal-actions">
        {canShare ? (
          <button
            type="button"
            onClick={() => createShare(sessionId, entryId).then(refresh, report)}
          >
            Create link
          </button>
        ) : null}
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  );
}
