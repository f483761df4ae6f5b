import type { AnyAgentTool } from './tool-types.js';
import { createBashTool } from './bash-tool.js';
import type { SandboxLimits } from './sandbox-command.js';
import { createEditTool } from './edit-tool.js';
import { createFindTool } from './find-tool.js';
import { createGrepTool } from './grep-tool.js';
import { createLsTool } from './ls-tool.js';
import { createReadTool } from './read-tool.js';
import { createWriteTool } from './write-tool.js';
import { realWorkspace } from './workspace-path.js';

export interface ToolPolicy {
  /** sandboxed: under bubblewrap (refused without it); unsandboxed: plain bash; off: no bash tool. */
  bash: 'sandboxed' | 'unsandboxed' | 'off';
  /** Network access for sandboxed bash. */
  network?: boolean;
  /** What sandboxed bash must not see, and its limits. */
  sandbox?: SandboxSettings;
}

export interface SandboxSettings {
  /** Arbor's data folder: hidden. */
  dataDir?: string;
  /** A relocated session folder (outside the data folder): hidden. */
  sessionDir?: string;
  /** Every configured workspace: all but the session's own are hidden. */
  workspaces?: string[];
  /** Defaults where absent (sandbox-command.ts). */
  limits?: Partial<SandboxLimits>;
}

export const DEFAULT_TOOL_POLICY: ToolPolicy = { bash: 'sandboxed' };

/** The tools of a session, confined to the workspace's real path, in pi's order. */
export function createTools(
  workspace: string,
  policy: ToolPolicy = DEFAULT_TOOL_POLICY,
  options: {
    bwrapPath?: string | null;
    /** `workspace` is its real path as configured: refuse it once it leads elsewhere. */
    exactWorkspace?: boolean;
  } = {},
): Map<string, AnyAgentTool> {
  const root = realWorkspace(workspace, options.exactWorkspace);
  const tools: AnyAgentTool[] = [createReadTool(root)];
  if (policy.bash !== 'off')
    tools.push(
      createBashTool(root, {
        mode: policy.bash,
        ...(policy.network !== undefined ? { network: policy.network } : {}),
        ...(options.bwrapPath !== undefined ? { bwrapPath: options.bwrapPath } : {}),
        ...policy.sandbox,
      }),
    );
  tools.push(
    createEditTool(root),
    createWriteTool(root),
    createGrepTool(root),
    createFindTool(root),
    createLsTool(root),
  );
  return new Map(tools.map((tool) => [tool.spec.name, tool]));
}
