import type {
  AssistantMessage,
  BashExecutionMessage,
  CustomMessage,
  ThinkingContent,
  ToolCall,
  ToolResultMessage,
  Usage,
  UserContent,
  UserMessage,
} from '../../shared/messages.js';
import { emptyUsage } from '../../shared/messages.js';

/*
 * The one message factory of the tests and the benchmarks, shaped as pi writes messages: for
 * stores, compaction, the hub, session files written by hand and the session generator alike.
 * Every factory takes the message's `timestamp` when the caller needs fixed times; without it,
 * messages get the factory's clock.
 */

// Strictly increasing message times a second apart that never run ahead of the clock (entries
// written later, such as a compaction, must be newer than every message they summarise).
let clock = Date.now() - 1_000_000_000;
const tick = (): number => (clock = Math.min(clock + 1000, Date.now()));

/** The demo model as session files name it (its catalog entry). */
export const DEMO_MODEL = { provider: 'arbor', model: 'arbor-demo' };

/** The usage of an answer in a file written by hand: a token of input and one of output. */
export const ONE_TOKEN_EACH: Partial<Usage> = { input: 1, output: 1, totalTokens: 2 };

interface Timed {
  timestamp?: number;
}

/** A user message; a string becomes one text part unless `plainString` keeps it as pi may store it. */
export function userMessage(
  content: UserContent,
  opts: Timed & { plainString?: boolean } = {},
): UserMessage {
  return {
    role: 'user',
    content:
      typeof content === 'string' && !opts.plainString
        ? [{ type: 'text', text: content }]
        : content,
    timestamp: opts.timestamp ?? tick(),
  };
}

/** A tool call of an answer: a whole ToolCall, or its id, name and arguments. */
type CallSpec = ToolCall | { id: string; name: string; args?: Record<string, unknown> };

export interface AssistantOptions extends Timed {
  /** Thinking before the text: its words, or the whole part (with a signature). */
  thinking?: string | ThinkingContent;
  toolCalls?: CallSpec[];
  stopReason?: AssistantMessage['stopReason'];
  errorMessage?: string;
  model?: string;
  provider?: string;
  /** The context the model counted (usage.input), as a real context grows; 0 by default. */
  contextTokens?: number;
  /** Usage figures as a provider reported them, over empty usage (after `contextTokens`). */
  usage?: Partial<Usage>;
}

/** An answer: thinking if given, `text` if not empty, then the tool calls. */
export function assistantMessage(text: string, opts: AssistantOptions = {}): AssistantMessage {
  const content: AssistantMessage['content'] = [];
  if (opts.thinking !== undefined) {
    content.push(
      typeof opts.thinking === 'string'
        ? { type: 'thinking', thinking: opts.thinking }
        : opts.thinking,
    );
  }
  if (text) content.push({ type: 'text', text });
  for (const call of opts.toolCalls ?? []) {
    content.push(
      'type' in call
        ? call
        : { type: 'toolCall', id: call.id, name: call.name, arguments: call.args ?? {} },
    );
  }
  let usage: Usage = emptyUsage();
  if (opts.contextTokens !== undefined) {
    usage.input = opts.contextTokens;
    usage.output = Math.ceil(text.length / 4);
    usage.totalTokens = usage.input + usage.output;
  }
  if (opts.usage) usage = { ...usage, ...opts.usage };
  return {
    role: 'assistant',
    content,
    api: 'openai-completions',
    provider: opts.provider ?? 'demo',
    model: opts.model ?? 'demo-model',
    usage,
    stopReason: opts.stopReason ?? (opts.toolCalls?.length ? 'toolUse' : 'stop'),
    ...(opts.errorMessage === undefined ? {} : { errorMessage: opts.errorMessage }),
    timestamp: opts.timestamp ?? tick(),
  };
}

/** The result of tool call `call` (a ToolCall, or its id: a bash call); a string is one text part. */
export function toolResultMessage(
  call: string | ToolCall | { id: string; name: string },
  content: string | ToolResultMessage['content'],
  opts: Timed & { isError?: boolean } = {},
): ToolResultMessage {
  return {
    role: 'toolResult',
    toolCallId: typeof call === 'string' ? call : call.id,
    toolName: typeof call === 'string' ? 'bash' : call.name,
    content: typeof content === 'string' ? [{ type: 'text', text: content }] : content,
    isError: opts.isError ?? false,
    timestamp: opts.timestamp ?? tick(),
  };
}

/** A `!command` run by the person: exit code 0, whole output, unless `opts` says otherwise. */
export function bashMessage(
  command: string,
  output: string,
  opts: Timed & Partial<Omit<BashExecutionMessage, 'role' | 'command' | 'output'>> = {},
): BashExecutionMessage {
  return {
    role: 'bashExecution',
    command,
    output,
    exitCode: 0,
    cancelled: false,
    truncated: false,
    ...opts,
    timestamp: opts.timestamp ?? tick(),
  };
}

export function customMessage(text: string): CustomMessage {
  return { role: 'custom', customType: 'note', content: text, display: true, timestamp: tick() };
}
