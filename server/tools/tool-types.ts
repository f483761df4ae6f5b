import type { ImageContent, TextContent } from '../../shared/messages.js';
import type { ToolSpec } from '../models/model-stream.js';

/*
 * What a tool is, as the agent sees it: a spec the model reads, a parser for its arguments and an
 * execute that returns content. Tools own this contract; the agent imports it.
 */

export interface ToolResultValue {
  content: (TextContent | ImageContent)[];
  details?: unknown;
}

export interface ToolContext {
  signal: AbortSignal;
  /** Reports accumulated output so far (becomes `tool_execution_update`). */
  onUpdate: (partial: ToolResultValue) => void;
}

/**
 * A tool the model can call. `execute` receives arguments already validated by `parse`; it
 * throws to report a failure, which becomes an `isError` result the model reads.
 */
export interface AgentTool<Args = unknown> {
  spec: ToolSpec;
  parse(args: unknown): Args;
  execute(args: Args, context: ToolContext): Promise<ToolResultValue>;
  /** Frees what the tool keeps for its session (bash: its output logs); called when it closes. */
  dispose?(): void;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyAgentTool = AgentTool<any>;
