import { createContext, useContext } from 'react';
import type { WorkspaceResources } from '../../../shared/resources';

/**
 * The open session's workspace resources as the server last answered `get_resources` (null until
 * it has), for the parts of the chat that say what is loaded and what was skipped.
 */
export const WorkspaceResourcesContext = createContext<WorkspaceResources | null>(null);

export function useWorkspaceResourcesNow(): WorkspaceResources | null {
  return useContext(WorkspaceResourcesContext);
}
