import type {
  AgentMessage,
  BashExecutionMessage,
  TextContent,
  ImageContent,
  ToolCall,
  ToolResultMessage,
} from '../../shared/messages.js';
import type { ProviderMessage } from './model-stream.js';

/*
 * Stored messages → the messages a provider is sent, exactly as pi 1.6 converts them
 * (coding-agent `convertToLlm`, then pi-ai `transformMessages`): system messages pass through in
 * transcript order (pi-ai renders them for the model's API, pi-ai-stream.ts); coding-agent roles become user
 * text with pi's fixed wording; error and aborted assistants are dropped; a tool call left without
 * a result gets a synthetic error result, so every provider accepts the history.
 */

export const COMPACTION_SUMMARY_PREFIX =
  'The conversation history before this point was compacted into the following summary:\n\n<summary>\n';
export const COMPACTION_SUMMARY_SUFFIX = '\n</summary>';
export const BRANCH_SUMMARY_PREFIX =
  'The following is a summary of a branch that this conversation came back from:\n\n<summary>\n';
export const BRANCH_SUMMARY_SUFFIX = '</summary>';
export const NO_RESULT_TEXT = 'No result provided';

export function bashExecutionToText(message: BashExecutionMessage): string {
  let text = `Ran \`${message.command}\`\n`;
  text += message.output ? `\`\`\`\n${message.output}\n\`\`\`` : '(no output)';
  if (message.cancelled) text += '\n\n(command cancelled)';
  else if (message.exitCode !== undefined && message.exitCode !== null && message.exitCode !== 0)
    text += `\n\nCommand exited with code ${message.exitCode}`;
  if (message.truncated && message.fullOutputPath)
    text += `\n\n[Output truncated. Full output: ${message.fullOutputPath}]`;
  return text;
}

function userText(text: string, timestamp: number): ProviderMessage {
  return { role: 'user', content: [{ type: 'text', text }], timestamp };
}

/** pi's `convertToLlm`: every stored role as a role the model understands. */
export function convertToLlm(messages: readonly AgentMessage[]): ProviderMessage[] {
  const out: ProviderMessage[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'bashExecution':
        if (!message.excludeFromContext)
          out.push(userText(bashExecutionToText(message), message.timestamp));
        break;
      case 'custom': {
        const content: (TextContent | ImageContent)[] =
          typeof message.content === 'string'
            ? [{ type: 'text', text: message.content }]
            : message.content;
        out.push({ role: 'user', content, timestamp: message.timestamp });
        break;
      }
      case 'branchSummary':
        out.push(
          userText(
            BRANCH_SUMMARY_PREFIX + message.summary + BRANCH_SUMMARY_SUFFIX,
            message.timestamp,
          ),
        );
        break;
      case 'compactionSummary':
        out.push(
          userText(
            COMPACTION_SUMMARY_PREFIX + message.summary + COMPACTION_SUMMARY_SUFFIX,
            message.timestamp,
          ),
        );
        break;
      case 'system':
      case 'user':
      case 'assistant':
      case 'toolResult':
        out.push(message);
        break;
      case 'hookMessage':
        // A v2 role that migration renames to `custom`; pi sends it nowhere.
        break;
    }
  }
  return out;
}

/**
 * pi's `transformMessages` for one provider: drop failed turns, answer orphaned tool calls. A
 * system message between a tool call and its results is held back until the results (synthetic
 * ones included) are in, as pi-ai 1.6 holds it, so it never splits a call from its result.
 */
export function transformForProvider(messages: ProviderMessage[]): ProviderMessage[] {
  const out: ProviderMessage[] = [];
  let pending: ToolCall[] = [];
  let answered = new Set<string>();
  const held: ProviderMessage[] = [];
  const flush = () => {
    flushCalls();
    out.push(...held);
    held.length = 0;
  };
  const flushCalls = () => {
    for (const call of pending) {
      if (answered.has(call.id)) continue;
      const synthetic: ToolResultMessage = {
        role: 'toolResult',
        toolCallId: call.id,
        toolName: call.name,
        content: [{ type: 'text', text: NO_RESULT_TEXT }],
        isError: true,
        timestamp: Date.now(),
      };
      out.push(synthetic);
    }
    pending = [];
    answered = new Set();
  };
  for (const message of messages) {
    if (message.role === 'assistant') {
      flush();
      if (message.stopReason === 'error' || message.stopReason === 'aborted') continue;
      const calls = message.content.filter((block): block is ToolCall => block.type === 'toolCall');
      if (calls.length > 0) {
        pending = calls;
        answered = new Set();
      }
      out.push(message);
    } else if (message.role === 'toolResult') {
      answered.add(message.toolCallId);
      out.push(message);
    } else if (message.role === 'system') {
      if (pending.length > 0) held.push(message);
      else out.push(message);
    } else {
      flush();
      out.push(message);
    }
  }
  flush();
  return out;
}

export function toProviderMessages(messages: AgentMessage[]): ProviderMessage[] {
  return transformForProvider(convertToLlm(messages));
}
