import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { mayAccess, readsOnly } from '../../../shared/authorisation';
import type { ImageContent } from '../../../shared/messages';
import { ThinkingLevelNameSchema } from '../../../shared/protocol';
import { type Me, type WorkspaceInfo } from '../../../shared/rest-shapes';
import type { TreeNode } from '../../../shared/session-entries';
import { listWorkspaces } from '../api/rest';
import { clickOutcome, editorContentOf, isEditableMessage } from '../../../shared/click-rule';
import { warmLayoutWorker } from '../graph/run-layout';
import { ArborSocket, defaultSocketUrl, type SocketStatus } from '../socket/arbor-socket';
import { activePathIds } from '../state/active-path';
import { ChatPane } from '../chat/ChatPane';
import { ChatToolbar } from '../chat/ChatToolbar';
import { Editor } from '../chat/Editor';
import { SessionsSidebar } from '../sessions/SessionsSidebar';
import { sessionTitle } from '../sessions/session-lineage';
import { useSessionList } from '../sessions/use-session-list';
import { useSessionSearch } from '../sessions/use-session-search';
import { ContextMarksProvider } from '../tree/ContextMarksProvider';
import { SessionTree } from '../tree/SessionTree';
import type { SummaryChoice } from '../tree/TreeToolbar';
import { sendBlockedBy } from './ConnectionBanner';
import { NoticeList } from './NoticeList';
import { ReadOnlyNote } from './ReadOnlyNote';
import { ExportShare } from './ExportShare';
import { useReadFromUrl } from './use-shared-link';
import { sessionFromUrl, showSessionInUrl } from './session-url';
import { TopBar, type Panel } from './TopBar';
import { useContextEdits } from './use-context-edits';
import { useEditorCommands } from './use-editor-commands';
import { useEditorAfterTap } from './use-editor-after-tap';
import { useReadingMode } from './use-reading-mode';
import { useRevealReads } from './use-reveal-reads';
import { usePageNotices } from './use-page-notices';
import { describeError, useSession } from './use-session';

/** The page once the user is known: sessions | chat | tree, all driven by one socket. */
export function Workbench({
  me,
  onLoggedOut,
  onMe,
}: {
  me: Me;
  onLoggedOut(): void;
  /** Who the server says the user is now (a role changed while the page was open). */
  onMe(me: Me): void;
}) {
  const [socket] = useState(() => new ArborSocket({ url: defaultSocketUrl(window.location) }));
  const [status, setStatus] = useState<SocketStatus>('connecting');
  const [workspaces, setWorkspaces] = useState<WorkspaceInfo[]>([]);
  const [sessionId, setSessionId] = useState<string | null>(sessionFromUrl);
  const [editorText, setEditorText] = useState('');
  const [images, setImages] = useState<ImageContent[]>([]);
  const [panel, setPanel] = useState<Panel>('chat');
  const { editorFocus, editorFilled } = useEditorAfterTap(setPanel);
  const { notices: pageNotices, report, clear } = usePageNotices();
  const canCreate = mayAccess(me.user, null, 'create');
  // A viewer gets a read-only page: one line says so, and no control that could never work.
  const readOnly = readsOnly(me.user);
  const meRef = useRef(me);
  meRef.current = me;

  useEffect(() => {
    // Big sessions lay their graph out in a worker: start it while the session loads.
    warmLayoutWorker();
    const offStatus = socket.onStatus((next) => {
      setStatus(next);
      if (next === 'unauthorized') onLoggedOut();
      // The server closes a socket whose user's role changed; the page reconnects and is told the
      // new role in the welcome, which every check on the page then uses.
      const user = next === 'open' ? socket.welcome?.user : undefined;
      if (user && (user.role !== meRef.current.user.role || user.name !== meRef.current.user.name))
        onMe({ ...meRef.current, user });
    });
    const offProblem = socket.onProblem(report);
    socket.start();
    return () => {
      offStatus();
      offProblem();
      socket.stop();
    };
  }, [socket, onLoggedOut, onMe, report]);

  const open = useCallback((id: string) => {
    setSessionId(id);
    showSessionInUrl(id);
    setPanel('chat');
  }, []);

  const createSession = useCallback(
    async (workspaceId: string) => {
      const result = await socket.request<'new_session'>({ type: 'new_session', workspaceId });
      open(result.sessionId);
      return result.sessionId;
    },
    [socket, open],
  );

  const sessionList = useSessionList({
    workspaces,
    sessionId,
    canCreate,
    open,
    createSession,
    report,
    clear,
    describeError,
  });
  const { sessions, refreshSessions } = sessionList;
  const { query, setQuery, search } = useSessionSearch(workspaces);

  // First load: the session in the URL, else the first workspace's newest session, else a new one.
  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        const list = await listWorkspaces();
        if (!live) return;
        setWorkspaces(list);
        const byWorkspace = await refreshSessions(list);
        if (!live || sessionFromUrl()) return;
        const first = list[0];
        if (!first) return;
        const newest = byWorkspace[first.id]?.[0];
        if (newest) open(newest.id);
        else if (canCreate) await createSession(first.id);
      } catch (error) {
        report(describeError(error));
      }
    })();
    return () => {
      live = false;
    };
  }, [refreshSessions, open, createSession, report, canCreate]);

  const onListClosed = sessionList.onClosed;
  const onClosed = useCallback(
    (closedId: string, reason: string) => {
      if (closedId !== sessionId) return;
      onListClosed(closedId, reason);
      setSessionId(null);
    },
    [sessionId, onListClosed],
  );
  const session = useSession(socket, sessionId, onClosed);
  const { view, notify, dismiss, loadBodies } = session;

  // Keep the list fresh when a run ends (first prompts, counts and times change).
  const running = view?.state.isStreaming ?? false;
  const treeSize = view?.tree.length ?? 0;
  useEffect(() => {
    if (running || workspaces.length === 0) return;
    const timer = setTimeout(() => void refreshSessions(workspaces).catch(() => undefined), 150);
    return () => clearTimeout(timer);
  }, [running, treeSize, workspaces, refreshSessions, view?.sessionName]);

  const currentId = view?.sessionId ?? null;
  const canWrite = view?.access.canWrite ?? canCreate;

  const fail = useCallback((error: unknown) => notify('error', describeError(error)), [notify]);

  const ready = view !== null && status === 'open';
  const contextEdits = useContextEdits(socket, view, canWrite, fail);
  const reading = useReadingMode(socket, session, fail, setPanel);
  useReadFromUrl(view?.sessionId ?? null, (id) => view?.byId.has(id) ?? false, reading);
  useRevealReads(view, reading);
  const { send, abort, clearQueue, dequeue } = useEditorCommands({
    socket,
    sessionId: currentId,
    ready,
    editor: { text: editorText, setText: setEditorText, images, setImages },
    fail,
  });

  // Read through a ref so the graph's callbacks stay stable while messages stream.
  const viewRef = useRef(view);
  useEffect(() => {
    viewRef.current = view;
  });

  // The prompt last handed back to the editor by a click: "Fork" forks at it while the leaf stays.
  const forkCandidate = useRef<{ entryId: string; leafId: string | null } | null>(null);

  // The editor's content as of the last render, for a click that fills it and may have to undo.
  const editorRef = useRef({ text: editorText, images });
  useEffect(() => {
    editorRef.current = { text: editorText, images };
  });

  const navigate = useCallback(
    (entry: TreeNode, summary: SummaryChoice) => {
      const view = viewRef.current;
      if (!view) return;
      const outcome = clickOutcome(entry);
      // A summary only makes sense when the old leaf is left behind on another branch.
      const leavesBranch =
        view.leafId !== null &&
        (outcome.newLeafId === null ||
          !activePathIds({ byId: view.byId, leafId: outcome.newLeafId }).includes(view.leafId));
      const summarize = summary.mode !== 'none' && leavesBranch;
      // The prompt's text goes into the editor at once when its body is at hand (the server's
      // answer confirms it); if the move is refused, the editor gets back what it held.
      const filled = outcome.fillsEditor ? editorContentOf(view.bodies.get(entry.id)) : null;
      const before = editorRef.current;
      if (outcome.fillsEditor) editorFilled();
      if (filled) {
        setEditorText(filled.text);
        setImages(filled.images);
      }
      const undo = (): void => {
        if (!filled) return;
        setEditorText((current) => (current === filled.text ? before.text : current));
        setImages((current) => (current === filled.images ? before.images : current));
      };
      socket
        .request<'navigate_tree'>({
          type: 'navigate_tree',
          sessionId: view.sessionId,
          targetId: outcome.targetId,
          ...(summarize ? { summarize: true } : {}),
          ...(summarize && summary.mode === 'custom' && summary.instructions.trim()
            ? { customInstructions: summary.instructions.trim() }
            : {}),
        })
        .then((result) => {
          if (!outcome.fillsEditor) return;
          if (result.cancelled) {
            undo();
            return;
          }
          const text = result.editorText ?? '';
          if (!filled || filled.text !== text) setEditorText(text);
          forkCandidate.current = { entryId: entry.id, leafId: outcome.newLeafId };
        })
        .catch((error: unknown) => {
          undo();
          fail(error);
        });
    },
    [socket, fail, editorFilled],
  );

  // A pointer resting on a prompt whose body the page lacks: fetch it so a click fills at once.
  const prefetch = useCallback(
    (entry: TreeNode) => {
      const view = viewRef.current;
      if (view && isEditableMessage(entry) && !view.bodies.has(entry.id)) loadBodies([entry.id]);
    },
    [loadBodies],
  );

  const setLabel = useCallback(
    (entryId: string, label: string | undefined) => {
      if (!currentId) return;
      socket
        .request<'set_label'>({
          type: 'set_label',
          sessionId: currentId,
          entryId,
          ...(label ? { label } : {}),
        })
        .catch(fail);
    },
    [currentId, socket, fail],
  );

  const setModel = useCallback(
    (modelId: string) => {
      if (currentId)
        socket
          .request<'set_model'>({ type: 'set_model', sessionId: currentId, modelId })
          .catch(fail);
    },
    [currentId, socket, fail],
  );

  const setThinkingLevel = useCallback(
    (level: string) => {
      if (!currentId) return;
      const parsed = ThinkingLevelNameSchema.safeParse(level);
      if (!parsed.success) return;
      socket
        .request<'set_thinking_level'>({
          type: 'set_thinking_level',
          sessionId: currentId,
          level: parsed.data,
        })
        .catch(fail);
    },
    [currentId, socket, fail],
  );

  const compact = useCallback(
    (instructions?: string) => {
      if (!currentId) return;
      socket
        .request<'compact'>({
          type: 'compact',
          sessionId: currentId,
          ...(instructions ? { customInstructions: instructions } : {}),
        })
        .catch(fail);
    },
    [currentId, socket, fail],
  );

  const forkAt = useCallback(
    (entryId: string) => {
      if (!currentId) return;
      socket
        .request<'fork'>({ type: 'fork', sessionId: currentId, entryId })
        .then((result) => {
          open(result.sessionId);
          setEditorText(result.editorText);
        })
        .catch(fail);
    },
    [currentId, socket, open, fail],
  );

  const forkLatest = useCallback(() => {
    if (!view) return;
    const candidate = forkCandidate.current;
    if (candidate && candidate.leafId === view.leafId && view.byId.has(candidate.entryId)) {
      forkAt(candidate.entryId);
      return;
    }
    const path = activePathIds(view);
    for (let i = path.length - 1; i >= 0; i--) {
      const node = view.byId.get(path[i]!);
      if (node?.type === 'message' && node.role === 'user') {
        forkAt(node.id);
        return;
      }
    }
    notify('info', 'There is no prompt on this branch to fork from yet.');
  }, [view, forkAt, notify]);

  const clone = useCallback(() => {
    if (!currentId) return;
    socket
      .request<'clone'>({ type: 'clone', sessionId: currentId })
      .then((result) => open(result.sessionId))
      .catch(fail);
  }, [currentId, socket, open, fail]);

  const newSession = useCallback(() => {
    const workspaceId = view?.workspaceId ?? workspaces[0]?.id;
    if (!workspaceId) return;
    setEditorText('');
    createSession(workspaceId).catch(fail);
  }, [view, workspaces, createSession, fail]);

  const listed = useMemo(
    () =>
      Object.values(sessions)
        .flat()
        .find((s) => s.id === currentId),
    [sessions, currentId],
  );
  const title = view?.sessionName ?? (listed ? sessionTitle(listed) : 'New session');

  const notices = [
    ...pageNotices,
    ...(view?.notices ?? []).map((n) => ({
      id: `n${n.id}`,
      kind: n.kind,
      text: n.text,
      close: () => dismiss(n.id),
    })),
  ];

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
        />
        {view ? (
          <ExportShare
            sessionId={view.sessionId}
            entryId={reading.entryId ?? view.leafId}
            canShare={canWrite}
            report={fail}
          />
        ) : null}
        <ChatPane
          view={view}
          reading={reading}
          contextActions={contextEdits.actions}
          onNavigate={navigate}
          empty={sessionId ? 'Opening the session…' : 'No session open.'}
        />
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
