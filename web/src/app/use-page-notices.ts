import { useCallback, useMemo, useRef, useState } from 'react';
import type { Notice } from './NoticeList';

/** A notice of the page's own: a problem, or news with an action (the undo of a delete). */
interface PageNotice {
  id: number;
  kind: 'error' | 'info';
  text: string;
  action?: { label: string; run(): void };
}

/**
 * The page's own notices (the last four): `report` adds one, and each shows with a close button
 * and, when it has one, its action, which closes the notice when used.
 */
export function usePageNotices() {
  const [list, setList] = useState<PageNotice[]>([]);
  const ids = useRef(0);

  const dismiss = useCallback((id: number) => setList((all) => all.filter((n) => n.id !== id)), []);

  const report = useCallback(
    (text: string, kind: PageNotice['kind'] = 'error', action?: PageNotice['action']) => {
      const notice: PageNotice = { id: ++ids.current, kind, text };
      if (action) notice.action = action;
      setList((all) => [...all.slice(-3), notice]);
    },
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

  return { notices, report };
}
