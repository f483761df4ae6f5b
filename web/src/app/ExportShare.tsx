import { useCallback, useState } from 'react';
import type { ShareLink } from '../../../shared/rest-shapes';
import { createShare, listShares, revokeShare } from '../api/rest';
import { openView, readEntryId, shownSessionId } from '../state/page-selectors';
import { usePage } from '../state/use-page-store';
import { Modal } from '../ui/Modal';
import './export-share.css';

/*
 * The session's downloads (its JSONL file, an HTML page of the active path or of the whole tree)
 * and its share links (docs/decisions/088-export-and-share.md).
 */

function absolute(url: string): string {
  return new URL(url, window.location.origin).href;
}

/** The open session's downloads and share links (nothing before its first snapshot). */
export function ExportShare(props: { canShare: boolean; report(error: unknown): void }) {
  const sessionId = usePage(shownSessionId);
  // A new link pins the entry being read, else the leaf.
  const entryId = usePage((state) => readEntryId(state) ?? openView(state)?.leafId ?? null);
  if (!sessionId) return null;
  return <ExportShareFor {...props} sessionId={sessionId} entryId={entryId} />;
}

function ExportShareFor({
  sessionId,
  entryId,
  canShare,
  report,
}: {
  sessionId: string;
  /** The entry a new link pins: the one being read, else the leaf. */
  entryId: string | null;
  canShare: boolean;
  report(error: unknown): void;
}) {
  const [open, setOpen] = useState(false);
  const [links, setLinks] = useState<ShareLink[] | null>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const base = `/api/sessions/${encodeURIComponent(sessionId)}`;

  const refresh = useCallback(() => {
    listShares(sessionId).then(setLinks, report);
  }, [sessionId, report]);
  const show = () => {
    setOpen(true);
    refresh();
  };
  const copy = (link: ShareLink) => {
    void navigator.clipboard
      ?.writeText(absolute(link.url))
      .then(() => setCopied(link.token))
      .catch(() => setCopied(null));
  };

  return (
    <div className="export-share" role="group" aria-label="Download and share">
      <a href={`${base}/download`} download>
        Download JSONL
      </a>
      <a href={`${base}/export.html?scope=path`} download>
        Export path as HTML
      </a>
      <a href={`${base}/export.html?scope=all`} download>
        Export tree as HTML
      </a>
      <button type="button" onClick={show}>
        Share…
      </button>
      {open ? (
        <Modal title="Share links" onClose={() => setOpen(false)}>
          <p>
            A link opens this session read-only for users of this Arbor, at the entry shown when it
            was made. It grants nothing else.
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
                    <button
                      type="button"
                      onClick={() => revokeShare(link.token).then(refresh, report)}
                    >
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
            <button type="button" onClick={() => setOpen(false)}>
              Close
            </button>
          </div>
        </Modal>
      ) : null}
    </div>
  );
}
