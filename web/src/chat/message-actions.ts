import { createContext } from 'react';

/*
 * What a chat message offers beside its text (decision 110): Edit and Rerun on a prompt, as a
 * click on its node does, and Copy on any message with text. Passed by context so that messages
 * stay memoised on their own data.
 */
export interface MessageActions {
  /** The signed-in user's name: their own prompts say "You", another member's their name. */
  userName: string | null;
  /** Whether this user may move the leaf and send (not a viewer, not while reading another branch). */
  canAct: boolean;
  /** False while the agent runs: the leaf cannot move then. */
  idle: boolean;
  /** Moves the leaf to the prompt's parent and puts its text in the editor. */
  edit(entryId: string): void;
  /** The same move, then sends the prompt again at once, as a new branch. */
  rerun(entryId: string): void;
}

export const MessageActionsContext = createContext<MessageActions>({
  userName: null,
  canAct: false,
  idle: true,
  edit: () => undefined,
  rerun: () => undefined,
});
