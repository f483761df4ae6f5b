import { Upload } from 'lucide-react';
import { memo, useMemo, useRef, useState } from 'react';
import type { SessionListItem } from '../../../shared/rest-shapes';
import { shownSessionId } from '../state/page-selectors';
import { usePage } from '../state/use-page-store';
import { LineageNote } from './LineageNote';
import { SearchResults } from './SearchResults';
import { sessionTitle, UNTITLED_SESSION } from '../../../shared/session-title';
import { lineageRows } from './session-lineage';
import type { SearchView } from './use-session-search';
import { ForkArrowIcon, PencilIcon, TrashIcon } from '../ui/icons';
import './search.css';

interface SessionsSidebarProps {
  query: string;
  onQuery(query: string): void;
  /** The search for `query` (null: no query, the plain list shows). */
  search: SearchView | null;
  /** Opens a session at one of its entries (a search hit), or at its leaf. */
  onOpenAt(session: SessionListItem, entryId: string | undefined): void;
  onOpen(session: SessionListItem): void;
  onRename(session: SessionListItem, name: string): void;
  onDelete(session: SessionListItem): void;
  /** Imports a pi session file into a workspace; absent for those who may not create sessions. */
  onImport?: ((workspaceId: string, file: File) => void) | undefined;
  /** The signed-in user: a session of someone else's says whose it is. */
  userName: string;
}

/** A button that asks for a pi session file (`.jsonl`) and hands it on. */
function ImportButton({ onFile }: { onFile(file: File): void }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        className="import-session"
        title="Open a session file written by pi or exported from Arbor (.jsonl)"
        onClick={() => input.current?.click()}
      >
        <Upload size={14} aria-hidden /> Import session
      </button>
      <input
        ref={input}
        type="file"
        accept=".jsonl,application/x-ndjson,application/jsonl"
        hidden
        aria-label="Session file to import"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) onFile(file);
        }}
      />
    </>
  );
}

function SessionRow({
  session,
  byId,
  depth,
  current,
  userName,
  onOpen,
  onRename,
  onDelete,
}: {
  userName: string;
  session: SessionListItem;
  byId: ReadonlyMap<string, SessionListItem>;
  depth: number;
  current: boolean;
  onOpen(): void;
  onRename(name: string): void;
  onDelete(): void;
}) {
  const [mode, setMode] = useState<'view' | 'rename' | 'delete'>('view');
  const title = sessionTitle(session);
  const [name, setName] = useState('');
  /** The field starts with what the row shows (not empty for an unnamed session), all selected. */
  const startRename = () => {
    setName(title === UNTITLED_SESSION ? '' : [...title].slice(0, 200).join(''));
    setMode('rename');
  };
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
            onFocus={(event) => event.target.select()}
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
            <LineageNote session={session} byId={byId} />
            <span className="session-meta">
              {new Date(session.modified).toLocaleString()} · {session.messageCount} messages
              {session.owner && session.owner !== userName ? ` · by ${session.owner}` : ''}
            </span>
          </button>
          {session.may.rename || session.may.delete ? (
            <span className="session-actions">
              {session.may.rename ? (
                <button
                  type="button"
                  aria-label={`Rename ${title}`}
                  title="Rename"
                  onClick={startRename}
                >
                  <PencilIcon />
                </button>
              ) : null}
              {session.may.delete ? (
                <button
                  type="button"
                  aria-label={`Delete ${title}`}
                  title="Move to trash"
                  onClick={() => setMode('delete')}
                >
                  <TrashIcon />
                </button>
              ) : null}
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

/**
 * Workspaces and their sessions, newest first, with rename, delete and lineage; while there is a
 * query, the sessions whose messages match it instead, with where they matched. The lists and
 * the open session are read from the page store.
 */
export const SessionsSidebar = memo(function SessionsSidebar(props: SessionsSidebarProps) {
  const workspaces = usePage((state) => state.workspaces);
  const sessions = usePage((state) => state.sessions);
  const currentSessionId = usePage(shownSessionId);
  const byId = useMemo(
    () => new Map(Object.values(sessions).flatMap((list) => list.map((s) => [s.id, s]))),
    [sessions],
  );
  const { search } = props;
  return (
    <nav className="sessions" aria-label="Sessions">
      <input
        type="search"
        aria-label="Search sessions"
        placeholder="Search all messages"
        value={props.query}
        onChange={(event) => props.onQuery(event.target.value)}
      />
      {search ? (
        <p className="muted search-status" role="status">
          {search.status === 'searching'
            ? 'Searching…'
            : search.status === 'failed'
              ? `Search failed: ${search.error ?? 'unknown error'}`
              : ''}
        </p>
      ) : null}
      {workspaces.map((workspace) => {
        if (search) {
          return (
            <section
              key={workspace.id}
              className="workspace"
              aria-label={`Workspace ${workspace.name}`}
            >
              <h2 title={workspace.path}>{workspace.name}</h2>
              <SearchResults
                workspaceId={workspace.id}
                search={search}
                byId={byId}
                currentSessionId={currentSessionId}
                onOpenAt={props.onOpenAt}
              />
            </section>
          );
        }
        // Not listed yet is not empty: "No sessions." only once the list has come.
        const listed = sessions[workspace.id];
        const rows = lineageRows(listed ?? []);
        return (
          <section
            key={workspace.id}
            className="workspace"
            aria-label={`Workspace ${workspace.name}`}
          >
            <h2 title={workspace.path}>{workspace.name}</h2>
            {props.onImport ? (
              <ImportButton onFile={(file) => props.onImport?.(workspace.id, file)} />
            ) : null}
            {listed === undefined ? (
              <p className="muted" role="status">
                Loading sessions…
              </p>
            ) : rows.length === 0 ? (
              <p className="muted">No sessions.</p>
            ) : null}
            <ul>
              {rows.map(({ session, depth }) => (
                <SessionRow
                  key={session.id}
                  session={session}
                  byId={byId}
                  depth={depth}
                  current={session.id === currentSessionId}
                  userName={props.userName}
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
