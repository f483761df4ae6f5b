import { useCallback, useState } from 'react';
import { mayAccess, mayManageKeys, readsOnly } from '../../../shared/authorisation';
import type { Me } from '../../../shared/rest-shapes';
import { openView, shownSessionId } from '../state/page-selectors';
import { createPageStore, EMPTY_PAGE } from '../state/page-store';
import type { Notice as SessionNotice } from '../state/session-reducer';
import { PageStoreContext, usePage, usePageStore } from '../state/use-page-store';
import { ChatPane } from '../chat/ChatPane';
import { ChatToolbar } from '../chat/ChatToolbar';
import { Editor } from '../chat/Editor';
import { RetryNote } from '../chat/RetryNote';
import { SessionsSidebar } from '../sessions/SessionsSidebar';
import { useSessionSearch } from '../sessions/use-session-search';
import { WorkspaceResourcesContext } from '../chat/resources-context';
import { ContextMarksProvider } from '../tree/ContextMarksProvider';
import { SessionTree } from '../tree/SessionTree';
import { sendBlockedBy } from './ConnectionBanner';
import { NoticeList } from './NoticeList';
import { ReadOnlyNote } from './ReadOnlyNote';
import { sessionFromUrl } from './session-url';
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
import { describeError, isBusyRefusal, sessionOfError, useSession } from './use-session';
import { useSessionCommands } from './use-session-commands';
import { useSocketConnection } from './use-socket-connection';
import { useTreeNavigation } from './use-tree-navigation';
import { useMessageActions } from './use-message-actions';
import { MessageActionsContext } from '../chat/message-actions';
import { CommandPalette, usePaletteShortcut } from './CommandPalette';
import { useCopyEntry } from './use-copy-entry';
import { SettingsDialog } from '../settings/SettingsDialog';

type WorkbenchProps = Parameters<typeof WorkbenchPage>[0];

/** The page once the user is known, with its own store (decisions 089, 093). */
export function Workbench(props: WorkbenchProps) {
  // The session in the URL is open from the start, so a reload reopens it.
  const [store] = useState(() =>
    createPageStore({ ...EMPTY_PAGE, openSessionId: sessionFromUrl() }),
  );
  return (
    <PageStoreContext.Provider value={store}>
      <WorkbenchPage {...props} />
    </PageStoreContext.Provider>
  );
}

const NO_NOTICES: readonly SessionNotice[] = [];

/**
 * The page once the user is known: sessions | chat | tree, all driven by one socket. The panes
 * read what they draw from the page store; the workbench hands them the commands.
 */
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
  const editor = useEditorContent();
  const { text: editorText, setText: setEditorText, images, setImages } = editor;
  const restoreDraft = useCallback(() => {
    const draft = editor.draft;
    if (!draft) return;
    setEditorText(draft.text);
    setImages(draft.images);
    editor.setDraft(null);
  }, [editor, setEditorText, setImages]);
  const [panel, setPanel] = useState<Panel>('chat');
  const { editorFocus, editorFilled, focusEditor } = useEditorAfterTap(setPanel);
  const { notices: pageNotices, report, clear } = usePageNotices();
  const { socket, status } = useSocketConnection({ me, onLoggedOut, onMe, report });
  const canCreate = mayAccess(me.user, null, 'create');
  // A viewer gets a read-only page: one line says so, and no control that could never work.
  const readOnly = readsOnly(me.user);

  const opened = useOpenSession({ socket, canCreate, setPanel, report, clear });
  const { sessionList } = opened;
  const workspaces = usePage((state) => state.workspaces);
  const { query, setQuery: setSearchQuery, search } = useSessionSearch(workspaces);
  const { dispatch } = usePageStore();
  // Clearing the search clears what it showed: its marks in the chat and the graph.
  const setQuery = useCallback(
    (next: string) => {
      setSearchQuery(next);
      if (!next.trim()) dispatch({ type: 'clear_reveal' });
    },
    [setSearchQuery, dispatch],
  );
  const session = useSession(socket, opened.onClosed);
  const { notify, dismiss, loadBodies } = session;
  useListsAfterRuns(sessionList.refreshSessions);

  const currentId = usePage(shownSessionId);
  const running = usePage((state) => openView(state)?.state.isStreaming ?? false);
  const canWrite = usePage((state) => openView(state)?.access.canWrite ?? canCreate);
  const entries = usePage((state) => openView(state)?.tree.length ?? 0);
  const sessionNotices = usePage((state) => openView(state)?.notices ?? NO_NOTICES);
  // A refusal because a run is going on is said until that run ends, not for ever.
  // A command's failure is said in the session it was about, never in one opened since.
  const fail = useCallback(
    (error: unknown) =>
      notify('error', describeError(error), isBusyRefusal(error), sessionOfError(error)),
    [notify],
  );

  const ready = currentId !== null && status === 'open';
  const contextEdits = useContextEdits(socket, canWrite, fail);
  const reading = useReadingMode(socket, session, fail, setPanel);
  const workspace = useWorkspaceResources({
    socket,
    sessionId: currentId,
    ready,
    running,
    entries,
    report,
    clear,
    quiet: readOnly,
  });
  useReadFromUrl(reading);
  useRevealReads(reading);
  const { send, abort, clearQueue, dequeue } = useEditorCommands({
    socket,
    sessionId: currentId,
    ready,
    editor,
    fail,
  });
  const { navigate, rerun, prefetch, forkCandidate } = useTreeNavigation({
    socket,
    editor,
    editorFilled,
    loadBodies,
    fail,
  });
  const { setLabel, setModel, setThinkingLevel, compact, forkLatest, clone, newSession } =
    useSessionCommands({
      socket,
      open: opened.open,
      createSession: opened.createSession,
      setEditorText,
      forkCandidate,
      notify,
      fail,
    });

  const copyEntry = useCopyEntry(socket, notify);
  const notices = withSessionNotices(pageNotices, sessionNotices, dismiss);
  const [paletteOpen, setPaletteOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const canManage = mayManageKeys(me.user);
  const togglePalette = useCallback(() => setPaletteOpen((open) => !open), []);
  usePaletteShortcut(togglePalette);
  const messageActions = useMessageActions({
    userName: me.user.name,
    canAct: canWrite && !readOnly,
    idle: !running,
    navigate: reading.backThen(navigate),
    rerun: reading.backThen(rerun),
  });

  return (
    <div className="workbench" data-panel={panel}>
      <TopBar
        panel={panel}
        onPanel={setPanel}
        status={status}
        me={me}
        onLoggedOut={onLoggedOut}
        onPalette={togglePalette}
        onSettings={canManage ? () => setSettingsOpen(true) : undefined}
      />
      {settingsOpen ? <SettingsDialog onClose={() => setSettingsOpen(false)} /> : null}
      <CommandPalette
        isOpen={paletteOpen}
        onOpenChange={setPaletteOpen}
        handlers={{
          canCreate: canCreate && !readOnly,
          canWrite: canWrite && !readOnly,
          canManage,
          onNewSession: newSession,
          onSettings: () => setSettingsOpen(true),
          onOpenSession: sessionList.reopen,
          onModel: setModel,
          onJump: (sessionId, entryId) => {
            reading.back();
            opened.revealEntry(sessionId, entryId);
          },
        }}
      />
      <NoticeList notices={notices} />
      <aside className="panel panel-sessions">
        <SessionsSidebar
          query={query}
          onQuery={setQuery}
          search={search}
          onOpenAt={sessionList.openAt}
          onOpen={(session) => sessionList.reopen(session.id)}
          onRename={sessionList.rename}
          onDelete={sessionList.remove}
          onImport={canCreate ? sessionList.importFile : undefined}
          userName={me.user.name}
        />
      </aside>
      <main className="panel panel-chat">
        <ChatToolbar
          canWrite={canWrite}
          canCreate={canCreate}
          readOnly={readOnly}
          onModel={setModel}
          onThinkingLevel={setThinkingLevel}
          onCompact={compact}
          onFork={forkLatest}
          onClone={clone}
          onNew={newSession}
          summarised={contextEdits.historyOnly.size}
          socket={socket}
          report={fail}
        />
        <WorkspaceResourcesContext value={workspace.resources}>
          <MessageActionsContext value={messageActions}>
            <ChatPane
              contextActions={contextEdits.actions}
              onBack={reading.back}
              onNavigate={navigate}
              onExample={
                canWrite && !readOnly
                  ? (text) => {
                      setEditorText(text);
                      focusEditor();
                    }
                  : undefined
              }
            />
          </MessageActionsContext>
        </WorkspaceResourcesContext>
        <RetryNote />
        {readOnly ? (
          <ReadOnlyNote />
        ) : (
          <Editor
            value={editorText}
            onChange={setEditorText}
            focusRequest={editorFocus}
            images={images}
            onImages={setImages}
            hasDraft={editor.draft !== null}
            onRestoreDraft={restoreDraft}
            canWrite={canWrite}
            ready={ready}
            sendBlocked={sendBlockedBy(status)}
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
        <ContextMarksProvider marks={contextEdits}>
          <SessionTree
            onNavigate={reading.backThen(navigate)}
            onRead={reading.read}
            onPrefetch={prefetch}
            onSetLabel={setLabel}
            onCopy={copyEntry}
          />
        </ContextMarksProvider>
      </section>
    </div>
  );
}
