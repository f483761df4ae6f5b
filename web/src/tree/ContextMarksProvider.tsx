import type { ReactNode } from 'react';
import type { ContextEditShown } from '../state/context-edits';
import { readEntryId } from '../state/page-selectors';
import { usePage } from '../state/use-page-store';
import { ContextEditsContext, HistoryOnlyContext, ReadingContext } from './context-edit-marks';

/**
 * What the graph's nodes mark of the model's context and of reading mode (decisions 064, 076);
 * the entry being read comes from the page store.
 */
export function ContextMarksProvider(props: {
  marks: { marks: ReadonlyMap<string, ContextEditShown>; historyOnly: ReadonlySet<string> };
  children: ReactNode;
}) {
  const reading = usePage(readEntryId);
  return (
    <ContextEditsContext.Provider value={props.marks.marks}>
      <HistoryOnlyContext.Provider value={props.marks.historyOnly}>
        <ReadingContext.Provider value={reading}>{props.children}</ReadingContext.Provider>
      </HistoryOnlyContext.Provider>
    </ContextEditsContext.Provider>
  );
}
