import { useCallback, useMemo, useState } from 'react';
import { mayAccess, readsOnly } from '../../../shared/authorisation';
import type { Me } from '../../../shared/rest-shapes';
import { createPageStore } from '../state/page-store';
import { PageStoreContext, usePageStore } from '../state/use-page-store';
import { ChatPane } from '../chat/ChatPane';
import { ChatToolbar } from '../chat/ChatToolbar';
import { Editor } from '../chat/Editor';
import { SessionsSidebar } from '../sessions/SessionsSidebar';
import { sessionTitle } from '../sessions/session-lineage';
import { useSessionSearch } from '../sessions/use-session-search';
import { WorkspaceResourcesContext } from '../chat/resources-context';
import { ContextMarksProvider } from '../tree/ContextMarksProvider';
import { SessionTree } from '../tree/SessionTree';
import { sendBlockedBy } from './ConnectionBanner';
import { NoticeList } from './NoticeList';
import { ReadOnlyNote } from './ReadOnlyNote';
import { ExportShare } from './ExportShare';
import { useReadFromUrl } from './use-shared-link';
import { TopBar, type Panel } from './TopBar';
import { useContextEdits } from './use-context-edits';
import { useEditorCommands } from './use-editor-commands';
import { useEditorAfterTap } from './use-editor-after-tap';
import { useEditorContent } from './use-editor-content';
import { useListsAfterRuns, useOpenSession } from './use-open-session';
import { useReadingMode } from './use-reading-mode';
import { useRevealReads } from './use-reveal-reads';
import { usePageNotices, withSessionNotices } from './use-page-notices';
import { useWorkspaceResources } from './use-workspace-resources';
import { describeError, useSession } from './use-session';
import { useSessionCommands } from './use-session-commands';
import { useSocketConnection } from './use-socket-connection';
import { useTreeNavigation } from './use-tree-navigation';

type WorkbenchProps = Parameters<typeof WorkbenchPage>[0];

/** The page once the user is known, with its own store (decision 089). */
export function Workbench(props: WorkbenchProps) {
  const [store] = useState(createPageStore);
  return (
    <PageStoreContext.Provider value={store}>
      <WorkbenchPage {...props} />
    </PageStoreContext.Provider>
  );
}

/** The page once the user is known: sessions | chat | tree, all driven by one socket. */
function WorkbenchPage({
  me,
  onLoggedOut,
  onMe,
}: {
  me: Me;
  onLoggedOut(): void;
  /** Who the server says the user is now (a role changed while the page was open). */
  onMe(me: Me): void;
}) {
  const store = usePageStore();
  const editor = useEditorContent();
  const { text: editorText, setText: setEditorText, images, setImages } = editor;
  const [panel, setPanel] = useState<Panel>('chat');
  const { editorFocus, editorFilled } = useEditorAfterTap(setPanel);
  const { notices: pageNotices, report, clear } = usePageNotices();
  const { socket, status } = useSocketConnection({ me, onLoggedOut, onMe, report });
  const canCreate = mayAccess(me.user, null, 'create');
  // A viewer gets a read-only page: one line says so, and no control that could never work.
  const readOnly = readsOnly(me.user);

  const opened = useOpenSession({ socket, store, canCreate, setPanel, report, clear });
  const { workspaces, sessionId, sessionList } = opened;
  const { sessions, refreshSessions } = sessionList;
  const { query, setQuery, search } = useSessionSearch(workspaces);
  const session = useSession(socket, store, sessionId, opened.onClosed);
  const { view, notify, dismiss, loadBodies } = session;
  useListsAfterRuns(view, workspaces, refreshSessions);

  const running = view?.state.isStreaming ?? false;
  const currentId = view?.sessionId ?? null;
  const canWrite = view?.access.canWrite ?? canCreate;
  const fail = useCallback((error: unknown) => notify('error', describeError(error)), [notify]);

  const ready = view !== null && status === 'open';
  const contextEdits = useContextEdits(socket, view, canWrite, fail);
  const reading = useReadingMode(socket, store, session, fail, setPanel);
  const workspace = useWorkspaceResources({
    socket,
    sessionId: currentId,
    ready,
    running,
    entries: view?.tree.length ?? 0,
    report,
    clear,
  });
  useReadFromUrl(view?.sessionId ?? null, (id) => view?.byId.has(id) ?? false, reading);
  useRevealReads(store, view, reading);
  const { send, abort, clearQueue, dequeue } = useEditorCommands({
    socket,
    sessionId: currentId,
    ready,
    editor,
    fail,
  });
  const { navigate, prefetch, forkCandidate } = useTreeNavigation({
    socket,
    view,
    editor,
    editorFilled,
    loadBodies,
    fail,
  });
  const { setLabel, setModel, setThinkingLevel, compact, forkLatest, clone, newSession } =
    useSessionCommands({
      socket,
      view,
      workspaces,
      open: opened.open,
      createSession: opened.createSession,
      setEditorText,
      forkCandidate,
      notify,
      fail,
    });

  const listed = useMemo(
    () =>
      Object.values(sessions)
        .flat()
        .find((s) => s.id === currentId),
    [sessions, currentId],
  );
  const title = view?.sessionName ?? (listed ? sessionTitle(listed) : 'New session');
  const notices = withSessionNotices(pageNotices, view?.notices ?? [], dismiss);

  return (
    <div className="workbench" data-panel={panel}>
      <TopBar panel={panel} onPanel={setPanel} status={status} me={me} onLoggedOut={onLoggedOut} />
      <NoticeList notices={notices} />
      <aside className="panel panel-sessions">
        <SessionsSidebar
          workspaces={workspaces}
          sessions={sessions}
          currentSessionId={currentId}
          query={query}
          onQuery={setQuery}
          search={search}
          onOpenAt={sessionList.openAt}
          onOpen={(session) => sessionList.reopen(session.id)}
          onRename={sessionList.rename}
          onDelete={sessionList.remove}
        />
      </aside>
      <main className="panel panel-chat">
        <ChatToolbar
          title={title}
          state={view?.state ?? null}
          models={view?.models ?? []}
          canWrite={canWrite}
          canCreate={canCreate}
          readOnly={readOnly}
          compacting={view?.compacting ?? null}
          onModel={setModel}
          onThinkingLevel={setThinkingLevel}
          onCompact={compact}
          onFork={forkLatest}
          onClone={clone}
          onNew={newSession}
          summarised={contextEdits.historyOnly.size}
          socket={socket}
          sessionId={view?.sessionId ?? null}
          readingEntryId={reading.entryId}
        />
        {view ? (
          <ExportShare
            sessionId={view.sessionId}
            entryId={reading.entryId ?? view.leafId}
            canShare={canWrite}
            report={fail}
          />
        ) : null}
        <WorkspaceResourcesContext value={workspace.resources}>
          <ChatPane
            view={view}
            reading={reading}
            contextActions={contextEdits.actions}
            onNavigate={navigate}
            empty={sessionId ? 'Opening the session…' : 'No session open.'}
          />
        </WorkspaceResourcesContext>
        {view?.retry ? (
          <p className="retry-note" role="status">
            Retrying ({view.retry.attempt}/{view.retry.maxAttempts}) after:{' '}
            {view.retry.errorMessage}
          </p>
        ) : null}
        {readOnly ? (
          <ReadOnlyNote />
        ) : (
          <Editor
            value={editorText}
            onChange={setEditorText}
            focusRequest={editorFocus}
            images={images}
            onImages={setImages}
            running={running}
            canWrite={canWrite}
            ready={ready}
            sendBlocked={sendBlockedBy(status)}
            steering={view?.state.steering ?? []}
            followUp={view?.state.followUp ?? []}
            onSend={reading.backThen(send)}
            onAbort={abort}
            onClearQueue={clearQueue}
            onDequeue={dequeue}
            slashItems={workspace.slashItems}
            slashOff={workspace.slashOff}
          />
        )}
      </main>
      <section className="panel panel-tree" role="region" aria-label="Session tree">
        <ContextMarksProvider marks={contextEdits} reading={reading.entryId}>
          {view ? (
            <SessionTree
              sessionId={view.sessionId}
              tree={view.tree}
              byId={view.byId}
              leafId={view.leafId}
              readOnly={!canWrite}
              onNavigate={reading.backThen(navigate)}
              onRead={reading.read}
              onPrefetch={prefetch}
              onSetLabel={setLabel}
            />
          ) : null}
        </ContextMarksProvider>
      </section>
    </div>
  );
}
