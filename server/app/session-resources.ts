import type { AgentResources } from '../agent/agent-resources.js';
import { expandInput, resourceSections } from '../resources/resource-prompt.js';
import {
  describeResources,
  loadWorkspaceResources,
  type LoadedResources,
} from '../resources/workspace-resources.js';
import { resourcePolicy } from '../resources/workspace-trust.js';

/*
 * The workspace's resources as an AgentSession uses them: each question reads the files afresh
 * under the policy in force now (the workspace setting, team mode, the admin's trust), so a
 * changed AGENTS.md or a new trust decision counts from the next request on.
 */
export function sessionResources(opts: {
  workspace: string;
  dataDir: string;
  /** The workspace's `resources` setting; true unless the config switched them off. */
  enabled: boolean;
  teamMode: () => boolean;
}): AgentResources {
  const load = (): LoadedResources =>
    loadWorkspaceResources({
      workspace: opts.workspace,
      dataDir: opts.dataDir,
      policy: resourcePolicy({
        workspace: opts.workspace,
        dataDir: opts.dataDir,
        enabled: opts.enabled,
        teamMode: opts.teamMode(),
      }),
    });
  return {
    sections: (toolNames) => resourceSections(load(), toolNames),
    expand: (text) => (text.startsWith('/') ? expandInput(text, load()) : text),
    describe: () => describeResources(load()),
  };
}
