import { useEffect, useMemo, useRef, useState } from 'react';
import type { WorkspaceResources } from '../../../shared/resources';
import { slashItems, type SlashItem } from '../chat/slash-menu';
import type { ArborSocket } from '../socket/arbor-socket';
import type { ReportOptions } from '../ui/report-options';
import { RESOURCES_NOTICE_KEY, resourceWarningsNotice, warningsKey } from './resource-notices';
import { describeError } from './use-session';

/** Said when the server switched the resources off without saying why. */
const OFF_REASON =
  'Context files, skills and prompt templates are switched off for this workspace.';

export interface WorkspaceResourcesView {
  /** The server's last answer for the open session; null until it came. */
  resources: WorkspaceResources | null;
  /** What the editor's `/` menu offers. */
  slashItems: readonly SlashItem[];
  /** Why the menu offers nothing: the resources are switched off (null otherwise). */
  slashOff: string | null;
}

/**
 * The open session's workspace resources (context files, skills, prompt templates): asked of the
 * server when the session opens, when the page reconnects, and once idle whenever entries were
 * added (a run may have written AGENTS.md or a template). Warnings become one calm page notice,
 * given again only when they change; a failed request says so once a session and leaves the
 * editor's `/` menu empty.
 */
export function useWorkspaceResources({
  socket,
  sessionId,
  ready,
  running,
  entries,
  report,
  clear,
  quiet = false,
}: {
  socket: ArborSocket;
  sessionId: string | null;
  /** The session is open and the socket connected. */
  ready: boolean;
  running: boolean;
  /**
   * How many entries the session has: a run that ended added some. (A run's start and end can
   * reach the page in one render, so `running` alone may never be seen to change.)
   */
  entries: number;
  report(text: string, kind?: 'error' | 'info', options?: ReportOptions): void;
  clear(key: string): void;
  /** The user only reads: warnings about files they cannot change are not announced. */
  quiet?: boolean;
}): WorkspaceResourcesView {
  const [held, setHeld] = useState<{ sessionId: string; resources: WorkspaceResources } | null>(
    null,
  );
  const announced = useRef<string | null>(null);

  useEffect(() => {
    if (!sessionId || !ready || running) return;
    let live = true;
    socket
      .request<'get_resources'>({ type: 'get_resources', sessionId })
      .then((resources) => {
        if (!live) return;
        setHeld({ sessionId, resources });
        const key = `${sessionId} ${warningsKey(resources.warnings)}`;
        if (announced.current === key) return;
        announced.current = key;
        const text = quiet ? null : resourceWarningsNotice(resources.warnings);
        if (text) report(text, 'info', { key: RESOURCES_NOTICE_KEY });
        else clear(RESOURCES_NOTICE_KEY);
      })
      .catch((error: unknown) => {
        if (!live) return;
        // Said once per session: the next run would only fail the same way.
        const key = `${sessionId} failed`;
        if (announced.current === key) return;
        announced.current = key;
        report(
          `The workspace's context files, skills and prompt templates could not be read: ${describeError(error)}`,
          'error',
          { key: RESOURCES_NOTICE_KEY },
        );
      });
    return () => {
      live = false;
    };
  }, [socket, sessionId, ready, running, entries, report, clear, quiet]);

  const resources = held && held.sessionId === sessionId ? held.resources : null;
  const items = useMemo(() => slashItems(resources), [resources]);
  const off = resources && !resources.loaded ? (resources.reason ?? OFF_REASON) : null;
  return { resources, slashItems: items, slashOff: off };
}
