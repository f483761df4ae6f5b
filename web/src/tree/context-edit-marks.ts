import { createContext } from 'react';
import type { ContextEditShown } from '../state/context-edits';

/** The context edits in effect on the active path (target id → how the model sees it), for nodes. */
export const ContextEditsContext = createContext<ReadonlyMap<string, ContextEditShown>>(new Map());
