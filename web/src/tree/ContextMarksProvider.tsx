import type { ReactNode } from 'react';
import type { ContextEditShown } from '../state/context-edits';
import { ContextEditsContext, HistoryOnlyContext, ReadingContext } from './context-edit-marks';

/** What the graph's nodes mark of the model's context and of reading mode (decisions 064, 076). */
export function ContextMarksProvider(props: {
  marks: { marks: ReadonlyMap<string, ContextEditShown>; historyOnly: ReadonlySet<string> };
  reading: string | null;
  children: ReactNode;
}) {
  return (
    <ContextEditsContext.Provider value={props.marks.marks}>
      <HistoryOnlyContext.Provider value={props.marks.historyOnly}>
        <ReadingContext.Provider value={props.reading}>{props.children}</ReadingContext.Provider>
      </HistoryOnlyContext.Provider>
    </ContextEditsContext.Provider>
  );
}
