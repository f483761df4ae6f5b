import type { SearchHit, SessionListItem } from '../../../shared/rest-shapes';
import { LineageNote } from './LineageNote';
import { sessionTitle } from '../../../shared/session-title';
import type { SearchView } from './use-session-search';

const WHERE: Record<SearchHit['where'], string> = {
  name: 'Name',
  user: 'Prompt',
  assistant: 'Answer',
  toolResult: 'Tool output',
  bashExecution: 'Shell command',
};

function Snippet({ hit }: { hit: SearchHit }) {
  const [start, end] = hit.match;
  return (
    <span className="search-snippet">
      {hit.snippet.slice(0, start)}
      <mark>{hit.snippet.slice(start, end)}</mark>
      {hit.snippet.slice(end)}
    </span>
  );
}

/** The sessions of one workspace that matched, newest first, each with where it matched. */
export function SearchResults({
  workspaceId,
  search,
  byId,
  currentSessionId,
  onOpenAt,
}: {
  workspaceId: string;
  search: SearchView;
  byId: ReadonlyMap<string, SessionListItem>;
  currentSessionId: string | null;
  onOpenAt(session: SessionListItem, entryId: string | undefined): void;
}) {
  const answer = search.answers[workspaceId];
  if (!answer) return null;
  const rows = answer.results.flatMap((result) => {
    const session = byId.get(result.sessionId);
    return session ? [{ session, result }] : [];
  });
  return (
    <>
      {rows.length === 0 && search.status === 'done' ? <p className="muted">No matches.</p> : null}
      {answer.note ? (
        <p className="muted search-note">Not everything was searched: {answer.note}</p>
      ) : null}
      <ul aria-label="Search results">
        {rows.map(({ session, result }) => {
          const title = sessionTitle(session);
          const current = session.id === currentSessionId;
          return (
            <li
              key={session.id}
              className={`session-row search-result${current ? ' is-current' : ''}`}
              data-session-id={session.id}
              data-parent-session-id={session.parentSessionId ?? ''}
            >
              <button
                type="button"
                className="session-open"
                aria-current={current ? 'page' : undefined}
                title={title}
                onClick={() => onOpenAt(session, undefined)}
              >
                <span className="session-name">{title}</span>
                <LineageNote session={session} byId={byId} />
              </button>
              <ul className="search-hits">
                {result.hits.map((hit, i) => (
                  <li key={hit.entryId ?? `name-${i}`}>
                    <button
                      type="button"
                      className="search-hit"
                      data-hit-entry-id={hit.entryId ?? ''}
                      onClick={() => onOpenAt(session, hit.entryId)}
                    >
                      <span className="search-where">{WHERE[hit.where]}</span>
                      <Snippet hit={hit} />
                    </button>
                  </li>
                ))}
                {result.moreHits ? <li className="muted">More matches in this session.</li> : null}
              </ul>
            </li>
          );
        })}
      </ul>
    </>
  );
}
