import type { AgentMessage, SystemMessage, ToolDeclaration } from '../../shared/messages.js';
import { currentSystemMessage, currentTools } from '../../shared/system-prompt.js';
import type { AnyAgentTool } from '../tools/tool-types.js';
import type { ToolSpec } from '../models/model-stream.js';

/*
 * Arbor's prompt and tools, recorded in the session as pi 1.6 records its own (decision 063): a
 * system message with every named section and every tool declaration before the first model
 * request, and a patch (changed sections by name, `null` for a removed one; tools added and
 * removed) whenever they differ from what the session's system messages replay to. Requests are
 * built from that replay, so a session always sends the prompt and tools it recorded.
 */

/** Named sections of Arbor's prompt, in the order they are sent. */
export type SystemPromptSections = Record<string, string>;

/**
 * Who the agent is, its tools and where it works, as named sections (pi's section names), with
 * the workspace's resource sections (`project_context`, `skills`) before `cwd`, where pi puts them.
 */
export function buildSystemPromptSections(
  workspace: string,
  tools: ReadonlyMap<string, AnyAgentTool>,
  resourceSections: Readonly<Record<string, string>> = {},
): SystemPromptSections {
  const toolLines = [...tools.values()]
    .map((tool) => `- ${tool.spec.name}: ${tool.spec.description.split('. ')[0]}`)
    .join('\n');
  return {
    preamble:
      "You are an expert coding assistant working in a user's project through Arbor. You help by reading files, running commands, editing code and writing new files.",
    tools: `Available tools:\n${toolLines}`,
    rules: `Guidelines:
- Read files before editing them; use edit for precise changes and write for new files or full rewrites.
- Prefer grep, find and ls for exploring over bash.
- Be concise in your answers; show file paths clearly when working with files.`,
    ...resourceSections,
    cwd: `Current working directory: ${workspace}`,
  };
}

/** A tool as the model is told of it (pi-ai's `toToolDeclaration`: a JSON copy, fixed key order). */
export function toToolDeclaration(spec: ToolSpec | ToolDeclaration): ToolDeclaration {
  return {
    name: spec.name,
    description: spec.description,
    parameters: JSON.parse(JSON.stringify(spec.parameters ?? {})) as unknown,
  };
}

function sameDeclaration(a: ToolDeclaration, b: ToolDeclaration): boolean {
  return JSON.stringify(toToolDeclaration(a)) === JSON.stringify(toToolDeclaration(b));
}

/** pi 1.6's `diffSystemPromptSections`: changed and new sections, `null` for removed ones. */
export function diffSections(
  previous: Record<string, string | null>,
  current: SystemPromptSections,
): Record<string, string | null> | undefined {
  const patch: Record<string, string | null> = {};
  for (const [name, text] of Object.entries(current))
    if (previous[name] !== text) patch[name] = text;
  for (const name of Object.keys(previous)) if (current[name] === undefined) patch[name] = null;
  return Object.keys(patch).length > 0 ? patch : undefined;
}

/** pi-ai's `getToolStateChanges`: a changed definition is a removal followed by an addition. */
export function toolChanges(
  previous: readonly ToolDeclaration[],
  current: readonly ToolDeclaration[],
): { toolsAdded: ToolDeclaration[]; toolsRemoved: { name: string }[] } {
  const before = new Map(previous.map((tool) => [tool.name, tool]));
  const after = new Map(current.map((tool) => [tool.name, tool]));
  return {
    toolsAdded: current
      .filter((tool) => {
        const old = before.get(tool.name);
        return old === undefined || !sameDeclaration(old, tool);
      })
      .map(toToolDeclaration),
    toolsRemoved: previous
      .filter((tool) => {
        const now = after.get(tool.name);
        return now === undefined || !sameDeclaration(tool, now);
      })
      .map((tool) => ({ name: tool.name })),
  };
}

/**
 * The system message to record before the next request so that `context` replays to `sections`
 * and `tools`, or undefined when it already does. Built as pi 1.6 builds it, down to the key
 * order of the written JSON: `role, content, sections, timestamp, toolsAdded, toolsRemoved`, a
 * field left out when it holds nothing.
 */
export function systemPromptUpdate(
  context: readonly AgentMessage[],
  sections: SystemPromptSections,
  tools: readonly ToolSpec[],
  timestamp: number,
): SystemMessage | undefined {
  const patch = diffSections(currentSystemMessage(context)?.sections ?? {}, sections);
  const { toolsAdded, toolsRemoved } = toolChanges(
    currentTools(context),
    tools.map(toToolDeclaration),
  );
  if (!patch && toolsAdded.length === 0 && toolsRemoved.length === 0) return undefined;
  return {
    role: 'system',
    content: '',
    ...(patch ? { sections: patch } : {}),
    timestamp,
    ...(toolsAdded.length > 0 ? { toolsAdded } : {}),
    ...(toolsRemoved.length > 0 ? { toolsRemoved } : {}),
  };
}
