import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createPageStore, EMPTY_PAGE, pageReducer } from '../state/page-store';
import { PageStoreContext } from '../state/use-page-store';
import { SessionsSidebar } from './SessionsSidebar';

const noop = () => undefined;

function sidebar(store: ReturnType<typeof createPageStore>): string {
  return renderToStaticMarkup(
    <PageStoreContext.Provider value={store}>
      <SessionsSidebar
        query=""
        onQuery={noop}
        search={null}
        onOpenAt={noop}
        onOpen={noop}
        onRename={noop}
        onDelete={noop}
        userName="ada"
      />
    </PageStoreContext.Provider>,
  );
}

describe('the sessions sidebar', () => {
  it('says it is loading until the list comes, and "No sessions." only then', () => {
    // A server render reads a store's first state: each state is a store of its own here.
    const listedWorkspaces = pageReducer(EMPTY_PAGE, {
      type: 'workspaces_listed',
      workspaces: [{ id: 'w1', name: 'app', path: '/srv/app' }],
    });
    const loading = sidebar(createPageStore(listedWorkspaces));
    expect(loading).toContain('Loading sessions…');
    expect(loading).not.toContain('No sessions.');
    const listed = pageReducer(listedWorkspaces, { type: 'sessions_listed', sessions: { w1: [] } });
    const empty = sidebar(createPageStore(listed));
    expect(empty).toContain('No sessions.');
    expect(empty).not.toContain('Loading sessions…');
  });

  it('says whose a session is when it is someone else’s', () => {
    const item = (id: string, owner: string | null) => ({
      id,
      workspaceId: 'w1',
      firstMessage: `prompt of ${id}`,
      created: '2026-12-07T10:00:00.000Z',
      modified: '2026-12-07T10:00:00.000Z',
      messageCount: 2,
      owner,
      may: { rename: false, delete: false },
    });
    const listed = pageReducer(
      pageReducer(EMPTY_PAGE, {
        type: 'workspaces_listed',
        workspaces: [{ id: 'w1', name: 'app', path: '/srv/app' }],
      }),
      {
        type: 'sessions_listed',
        sessions: { w1: [item('s1', 'ada'), item('s2', 'max'), item('s3', null)] },
      },
    );
    const html = sidebar(createPageStore(listed));
    expect(html).toContain(' · by max');
    expect(html.match(/ · by /g)).toHaveLength(1);
  });
});
