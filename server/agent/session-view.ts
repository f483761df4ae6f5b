import type { SessionStore } from '../store/session-store.js';

/**
 * What the floors above the agent may read of a session's tree, through its AgentSession: the
 * store's read methods and nothing that writes. Writes go through AgentSession's own methods.
 */
export type SessionView = Pick<
  SessionStore,
  | 'sessionId'
  | 'file'
  | 'header'
  | 'access'
  | 'getTree'
  | 'getEntry'
  | 'getNode'
  | 'getBranch'
  | 'forEachEntry'
  | 'getLeafId'
  | 'getSessionName'
>;
