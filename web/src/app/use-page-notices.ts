import { useCallback, useMemo, useRef, useState } from 'react';
import type { Notice as SessionNotice } from '../state/session-reducer';
import type { ReportOptions } from '../ui/report-options';
import type { Notice } from './NoticeList';

/** A notice of the page's own: a problem, or news with an action (the undo of a delete). */
interface PageNotice {
  id: number;
  kind: 'error' | 'info';
  text: string;
  action?: ReportOptions['action'];
  /** What the notice is about (e.g. one session's closing): a newer one replaces it, `clear` drops it. */
  key?: string;
}

/**
 * The page's own notices (the last four): `report` adds one, and each shows with a close button
 * and, when it has one, its action, which closes the notice when used. A notice given a `key`
 * stands for a state of the page (a session gone) and is dropped by `clear(key)` once that state
 * is over (the session open again), so it never outlives what it says.
 */
export function usePageNotices() {
  const [list, setList] = useState<PageNotice[]>([]);
  const ids = useRef(0);

  const dismiss = useCallback((id: number) => setList((all) => all.filter((n) => n.id !== id)), []);

  const report = useCallback(
    (text: string, kind: PageNotice['kind'] = 'error', options: ReportOptions = {}) => {
      const notice: PageNotice = { id: ++ids.current, kind, text };
      if (options.action) notice.action = options.action;
      if (options.key !== undefined) notice.key = options.key;
      setList((all) => [
        ...all.filter((n) => options.key === undefined || n.key !== options.key).slice(-3),
        notice,
      ]);
    },
    [],
  );

  const clear = useCallback(
    (key: string) =>
      setList((all) => (all.some((n) => n.key === key) ? all.filter((n) => n.key !== key) : all)),
    [],
  );

  const notices = useMemo<Notice[]>(
    () =>
      list.map((notice) => {
        const { action } = notice;
        return {
          id: `p${notice.id}`,
          kind: notice.kind,
          text: notice.text,
          ...(action
            ? {
                action: {
                  label: action.label,
                  run: () => {
                    dismiss(notice.id);
                    action.run();
                  },
                },
              }
            : {}),
          close: () => dismiss(notice.id),
        };
      }),
    [list, dismiss],
  );

  return { notices, report, clear };
}

/** The page's own notices, then the open session's (`dismiss` closes one of those). */
export function withSessionNotices(
  page: Notice[],
  session: readonly SessionNotice[],
  dismiss: (id: number) => void,
): Notice[] {
  return [
    ...page,
    ...session.map((n) => ({
      id: `n${n.id}`,
      kind: n.kind,
      text: n.text,
      close: () => dismiss(n.id),
    })),
  ];
}
