import type {
  AssistantMessage,
  BashExecutionMessage,
  CustomMessage,
  ToolResultMessage,
  UserMessage,
} from '../../../shared/messages.js';
import { emptyUsage } from '../../../shared/messages.js';

/* Message factories shaped as pi writes them. */

let clock = 1_796_000_000_000;
const tick = (): number => (clock += 1000);

export function userMessage(text: string): UserMessage {
  return { role: 'user', content: [{ type: 'text', text }], timestamp: tick() };
}

export function assistantMessage(
  text: string,
  opts: {
    toolCalls?: { id: string; name: string; args?: Record<string, unknown> }[];
    stopReason?: AssistantMessage['stopReason'];
    model?: string;
    provider?: string;
  } = {},
): AssistantMessage {
  const content: AssistantMessage['content'] = [];
  if (text) content.push({ type: 'text', text });
  for (const call of opts.toolCalls ?? []) {
    content.push({ type: 'toolCall', id: call.id, name: call.name, arguments: call.args ?? {} });
  }
  return {
    role: 'assistant',
    content,
    api: 'openai-completions',
    provider: opts.provider ?? 'demo',
    model: opts.model ?? 'demo-model',
    usage: emptyUsage(),
    stopReason: opts.stopReason ?? (opts.toolCalls?.length ? 'toolUse' : 'stop'),
    timestamp: tick(),
  };
}

export function toolResultMessage(
  toolCallId: string,
  text: string,
  isError = false,
): ToolResultMessage {
  return {
    role: 'toolResult',
    toolCallId,
    toolName: 'bash',
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
