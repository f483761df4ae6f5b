export interface Notice {
  id: string;
  kind: string;
  text: string;
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
          <button type="button" aria-label="Dismiss" onClick={notice.close}>
            ×
          </button>
        </p>
      ))}
    </div>
  );
}
