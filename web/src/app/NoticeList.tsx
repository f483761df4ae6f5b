export interface Notice {
  id: string;
  kind: string;
  text: string;
  /** A button beside the text (an undo), named for what it does. */
  action?: { label: string; run(): void };
  close(): void;
}

/** Problems and server notices, each dismissable, announced as an alert. */
export function NoticeList({ notices }: { notices: Notice[] }) {
  if (notices.length === 0) return null;
  return (
    <div className="notices" role="alert">
      {notices.map((notice) => (
        <p key={notice.id} className={`notice notice-${notice.kind}`}>
          {notice.text}
          {notice.action ? (
            <button type="button" className="notice-action" onClick={notice.action.run}>
              {notice.action.label}
            </button>
          ) : null}
          <button type="button" aria-label="Dismiss" onClick={notice.close}>
            ×
          </button>
        </p>
      ))}
    </div>
  );
}
