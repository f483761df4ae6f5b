import type {
  AssistantMessage,
  BashExecutionMessage,
  CustomMessage,
  ToolCall,
  ToolResultMessage,
  UserMessage,
} from '../../shared/messages.js';
import { emptyUsage } from '../../shared/messages.js';

/*
 * The message factories of the tests, shaped as pi writes them: for stores, compaction, the hub
 * and the benchmarks alike.
 */

// Strictly increasing message times a second apart that never run ahead of the clock (entries
// written later, such as a compaction, must be newer than every message they summarise).
let clock = Date.now() - 1_000_000_000;
const tick = (): number => (clock = Math.min(clock + 1000, Date.now()));

export function userMessage(text: string): UserMessage {
  return { role: 'user', content: [{ type: 'text', text }], timestamp: tick() };
}

/** A tool call of an answer: a whole ToolCall, or its id, name and arguments. */
type CallSpec = ToolCall | { id: string; name: string; args?: Record<string, unknown> };

export function assistantMessage(
  text: string,
  opts: {
    toolCalls?: CallSpec[];
    stopReason?: AssistantMessage['stopReason'];
    model?: string;
    provider?: string;
    /** The context the model counted (usage.input), as a real context grows; 0 by default. */
    contextTokens?: number;
  } = {},
): AssistantMessage {
  const content: AssistantMessage['content'] = [];
  if (text) content.push({ type: 'text', text });
  for (const call of opts.toolCalls ?? []) {
    content.push(
      'type' in call
        ? call
        : { type: 'toolCall', id: call.id, name: call.name, arguments: call.args ?? {} },
    );
  }
  const usage = emptyUsage();
  if (opts.contextTokens !== undefined) {
    usage.input = opts.contextTokens;
    usage.output = Math.ceil(text.length / 4);
    usage.totalTokens = usage.input + usage.output;
  }
  return {
    role: 'assistant',
    content,
    api: 'openai-completions',
    provider: opts.provider ?? 'demo',
    model: opts.model ?? 'demo-model',
    usage,
    stopReason: opts.stopReason ?? (opts.toolCalls?.length ? 'toolUse' : 'stop'),
    timestamp: tick(),
  };
}

/** The result of tool call `call` (a ToolCall, or its id: a bash call). */
export function toolResultMessage(
  call: string | ToolCall,
  text: string,
  isError = false,
): ToolResultMessage {
  return {
    role: 'toolResult',
    toolCallId: typeof call === 'string' ? call : call.id,
    toolName: typeof call === 'string' ? 'bash' : call.name,
    content: [{ type: 'text', text }],
    isError,
    timestamp: tick(),
  };
}

export function bashMessage(command: string, output: string): BashExecutionMessage {
  return {
    role: 'bashExecution',
    command,
    output,
    exitCode: 0,
    cancelled: false,
    truncated: false,
    timestamp: tick(),
  };
}

export function customMessage(text: string): CustomMessage {
  return { role: 'custom', customType: 'note', content: text, display: true, timestamp: tick() };
}
