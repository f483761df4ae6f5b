import type { WorkspaceResources } from '../../shared/resources.js';

/*
 * What the workspace's context files, skills and prompt templates give a session, as the agent
 * sees them: functions, so the agent knows nothing of files (the composition root wires
 * server/resources/ in). Each call reads afresh, so an edited AGENTS.md is in the next request.
 */
export interface AgentResources {
  /** Sections to add to the prompt before `cwd` (pi's `project_context`, `skills`). */
  sections(toolNames: readonly string[]): Record<string, string>;
  /** The text of a prompt as it becomes a user message (`/skill:name`, `/template args`). */
  expand(text: string): string;
  /** The `get_resources` answer. */
  describe(): WorkspaceResources;
}

/** A session without workspace resources (tests, and a workspace that has them switched off). */
export const NO_RESOURCES: AgentResources = {
  sections: () => ({}),
  expand: (text) => text,
  describe: () => ({
    loaded: false,
    reason: 'This session loads no workspace resources.',
    contextFiles: [],
    skills: [],
    templates: [],
    warnings: [],
  }),
};
