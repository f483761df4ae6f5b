import { memo, useState } from 'react';
import type { SessionListItem, WorkspaceInfo } from '../../../shared/rest-shapes';
import { lineageRows, sessionTitle } from './session-lineage';
import { ForkArrowIcon, PencilIcon, TrashIcon } from '../ui/icons';

interface SessionsSidebarProps {
  workspaces: WorkspaceInfo[];
  sessions: Record<string, SessionListItem[]>;
  currentSessionId: string | null;
  query: string;
  onQuery(query: string): void;
  onOpen(session: SessionListItem): void;
  onRename(session: SessionListItem, name: string): void;
  onDelete(session: SessionListItem): void;
  canWrite(session: SessionListItem): boolean;
}

function SessionRow({
  session,
  depth,
  current,
  writable,
  onOpen,
  onRename,
  onDelete,
}: {
  session: SessionListItem;
  depth: number;
  current: boolean;
  writable: boolean;
  onOpen(): void;
  onRename(name: string): void;
  onDelete(): void;
}) {
  const [mode, setMode] = useState<'view' | 'rename' | 'delete'>('view');
  const title = sessionTitle(session);
  const [name, setName] = useState(session.name ?? '');
  return (
    <li
      className={`session-row${current ? ' is-current' : ''}`}
      style={{ paddingLeft: `${depth * 14}px` }}
      data-session-id={session.id}
      data-parent-session-id={session.parentSessionId ?? ''}
    >
      {mode === 'rename' ? (
        <form
          className="inline-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (name.trim()) onRename(name.trim());
            setMode('view');
          }}
        >
          <input
            autoFocus
            aria-label="Session name"
            value={name}
            maxLength={200}
            onChange={(event) => setName(event.target.value)}
          />
          <button type="submit">Save name</button>
          <button type="button" onClick={() => setMode('view')}>
            Cancel
          </button>
        </form>
      ) : (
        <>
          <button
            type="button"
            className="session-open"
            aria-current={current ? 'page' : undefined}
            title={title}
            onClick={onOpen}
          >
            {depth > 0 ? <ForkArrowIcon /> : null}
            <span className="session-name">{title}</span>
            <span className="session-meta">
              {new Date(session.modified).toLocaleString()} · {session.messageCount} messages
            </span>
          </button>
          {writable ? (
            <span className="session-actions">
              <button
                type="button"
                aria-label={`Rename ${title}`}
                title="Rename"
                onClick={() => setMode('rename')}
              >
                <PencilIcon />
              </button>
              <button
                type="button"
                aria-label={`Delete ${title}`}
                title="Move to trash"
                onClick={() => setMode('delete')}
              >
                <TrashIcon />
              </button>
            </span>
          ) : null}
        </>
      )}
      {mode === 'delete' ? (
        <div className="inline-form" role="group" aria-label="Confirm delete">
          <span>Move to trash?</span>
          <button
            type="button"
            className="danger"
            onClick={() => {
              setMode('view');
              onDelete();
            }}
          >
            Move to trash
          </button>
          <button type="button" onClick={() => setMode('view')}>
            Keep
          </button>
        </div>
      ) : null}
    </li>
  );
}

/** Workspaces and their sessions, newest first, with search, rename, delete and lineage. */
export const SessionsSidebar = memo(function SessionsSidebar(props: SessionsSidebarProps) {
  return (
    <nav className="sessions" aria-label="Sessions">
      <input
        type="search"
        aria-label="Search sessions"
        placeholder="Search sessions"
        value={props.query}
        onChange={(event) => props.onQuery(event.target.value)}
      />
      {props.workspaces.map((workspace) => {
        const rows = lineageRows(props.sessions[workspace.id] ?? []);
        return (
          <section
            key={workspace.id}
            className="workspace"
            aria-label={`Workspace ${workspace.name}`}
          >
            <h2 title={workspace.path}>{workspace.name}</h2>
            {rows.length === 0 ? <p className="muted">No sessions.</p> : null}
            <ul>
              {rows.map(({ session, depth }) => (
                <SessionRow
                  key={session.id}
                  session={session}
                  depth={depth}
                  current={session.id === props.currentSessionId}
                  writable={props.canWrite(session)}
                  onOpen={() => props.onOpen(session)}
                  onRename={(name) => props.onRename(session, name)}
                  onDelete={() => props.onDelete(session)}
                />
              ))}
            </ul>
          </section>
        );
      })}
    </nav>
  );
});
