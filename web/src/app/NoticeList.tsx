import './notices.css';

export interface Notice {
  id: string;
  kind: string;
  text: string;
  /** A button beside the text (an undo), named for what it does. */
  action?: { label: string; run(): void };
  close(): void;
}

/**
 * Problems and server notices, each dismissable, announced as an alert. The action sits right
 * after its message and the close button at the line's end; a long text wraps (even a word
 * without spaces), so neither button is ever pushed off the screen.
 */
export function NoticeList({ notices }: { notices: Notice[] }) {
  if (notices.length === 0) return null;
  return (
    <div className="notices" role="alert">
      {notices.map((notice) => (
        <p key={notice.id} className={`notice notice-${notice.kind}`}>
          <span className="notice-text">{notice.text}</span>
          {notice.action ? (
            <button type="button" className="notice-action" onClick={notice.action.run}>
              {notice.action.label}
            </button>
          ) : null}
          <button
            type="button"
            className="notice-close"
            aria-label="Dismiss"
            onClick={notice.close}
          >
            ×
          </button>
        </p>
      ))}
    </div>
  );
}
