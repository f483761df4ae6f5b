import { useMemo } from 'react';
import type { TreeNode } from '../../../shared/session-entries';
import type { MessageActions } from '../chat/message-actions';
import { openView } from '../state/page-selectors';
import { usePageStore } from '../state/use-page-store';
import type { SummaryChoice } from '../tree/TreeToolbar';

/** The chat's Edit moves the leaf as a node click does, without a summary of the branch left. */
const NO_SUMMARY: SummaryChoice = { mode: 'none', instructions: '' };

/** The chat's message actions, on the tree navigation's own moves (use-tree-navigation.ts). */
export function useMessageActions(opts: {
  userName: string;
  canAct: boolean;
  idle: boolean;
  navigate(entry: TreeNode, summary: SummaryChoice): void;
  rerun(entry: TreeNode): void;
}): MessageActions {
  const store = usePageStore();
  const { userName, canAct, idle, navigate, rerun } = opts;
  return useMemo(() => {
    const entryOf = (entryId: string) => openView(store.getState())?.byId.get(entryId);
    return {
      userName,
      canAct,
      idle,
      edit: (entryId) => {
        const entry = entryOf(entryId);
        if (entry) navigate(entry, NO_SUMMARY);
      },
      rerun: (entryId) => {
        const entry = entryOf(entryId);
        if (entry) rerun(entry);
      },
    };
  }, [store, userName, canAct, idle, navigate, rerun]);
}
