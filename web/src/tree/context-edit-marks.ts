import { createContext } from 'react';
import type { ContextEditShown } from '../state/context-edits';

/** The context edits in effect on the active path (target id → how the model sees it), for nodes. */
export const ContextEditsContext = createContext<ReadonlyMap<string, ContextEditShown>>(new Map());

/**
 * Entries of the active path that a compaction summarised: only in history, not in the model's
 * context now (decision 076). Nodes draw them dimmed.
 */
export const HistoryOnlyContext = createContext<ReadonlySet<string>>(new Set());

/** The words a node and its label use for an entry outside the model's context. */
export const HISTORY_ONLY_NOTE = 'summarised by compaction, not sent to the model';

/** The entry whose path the chat shows while reading another branch, for nodes to mark. */
export const ReadingContext = createContext<string | null>(null);
