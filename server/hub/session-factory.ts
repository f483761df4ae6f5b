import type { AgentSession } from '../agent/agent-session.js';
import type { Workspace } from '../config/workspaces.js';

/**
 * How the hub gets its AgentSessions: built where the server is wired (server/app/), so the hub
 * knows neither files, nor tools, nor compaction. Each method returns a session ready to run, or
 * throws an ArborError a person can read.
 */
export interface SessionFactory {
  /** The session in `file`; `conflict` when the file is damaged beyond repair. */
  open(file: string, workspace: Workspace): Promise<AgentSession>;
  /** A new, empty session in the workspace's session folder. */
  create(workspace: Workspace): Promise<AgentSession>;
  /** A new session holding the path to the parent of user message `entryId` of `source`. */
  fork(
    source: AgentSession,
    entryId: string,
    workspace: Workspace,
  ): Promise<{ agent: AgentSession; text: string }>;
  /** A new session holding the active path of `source`. */
  clone(source: AgentSession, workspace: Workspace): Promise<AgentSession>;
}
