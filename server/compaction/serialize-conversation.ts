import type {
  AgentMessage,
  AssistantMessage,
  BashExecutionMessage,
  ToolResultMessage,
  UserMessage,
} from '../../shared/messages.js';

/*
 * A conversation as plain text for a summary request. Serialising (instead of replaying the
 * messages) keeps the summarising model from answering the conversation instead of describing it.
 * The format is pi's, so summaries written by either tool read alike.
 */

/** Longest tool result kept in a summary request before truncation, as in pi. */
export const TOOL_RESULT_MAX_CHARS = 2000;

export const COMPACTION_SUMMARY_PREFIX =
  'The conversation history before this point was compacted into the following summary:\n\n<summary>\n';
export const COMPACTION_SUMMARY_SUFFIX = '\n</summary>';
export const BRANCH_SUMMARY_PREFIX =
  'The following is a summary of a branch that this conversation came back from:\n\n<summary>\n';
export const BRANCH_SUMMARY_SUFFIX = '</summary>';

/** The three roles a provider sees. */
export type LlmMessage = UserMessage | AssistantMessage | ToolResultMessage;

/** The text a user-run shell command contributes to a model's context, worded as pi words it. */
export function bashExecutionText(message: BashExecutionMessage): string {
  let text = `Ran \`${message.command}\`\n`;
  text += message.output ? `\`\`\`\n${message.output}\n\`\`\`` : '(no output)';
  if (message.cancelled) text += '\n\n(command cancelled)';
  else if (message.exitCode !== undefined && message.exitCode !== null && message.exitCode !== 0)
    text += `\n\nCommand exited with code ${message.exitCode}`;
  if (message.truncated && message.fullOutputPath)
    text += `\n\n[Output truncated. Full output: ${message.fullOutputPath}]`;
  return text;
}

/**
 * Messages as a provider sees them: user-run commands, custom messages and summaries become user
 * text; commands excluded from context and unknown roles are dropped.
 */
export function toLlmMessages(messages: readonly AgentMessage[]): LlmMessage[] {
  const out: LlmMessage[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'user':
      case 'assistant':
      case 'toolResult':
        out.push(message);
        break;
      case 'bashExecution':
        if (!message.excludeFromContext)
          out.push(userText(bashExecutionText(message), message.timestamp));
        break;
      case 'custom':
        out.push({
          role: 'user',
          content:
            typeof message.content === 'string'
              ? [{ type: 'text', text: message.content }]
              : message.content,
          timestamp: message.timestamp,
        });
        break;
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
      case 'hookMessage':
        break;
    }
  }
  return out;
}

function userText(text: string, timestamp: number): UserMessage {
  return { role: 'user', content: [{ type: 'text', text }], timestamp };
}

/** Cuts text to `maxChars`, saying how much was left out. */
export function truncateForSummary(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n\n[... ${text.length - maxChars} more characters truncated]`;
}

/** The text of a user message's text blocks, joined without separator (as pi serialises them). */
export function userMessageText(message: UserMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content
    .filter((block) => block.type === 'text')
    .map((block) => (block.type === 'text' ? block.text : ''))
    .join('');
}

/**
 * The serialised parts of one message, each becoming a paragraph of the conversation text.
 * `toolResultMaxChars` caps tool output; 0 replaces it with a note that it was left out.
 */
export function serializeMessage(
  message: LlmMessage,
  toolResultMaxChars: number = TOOL_RESULT_MAX_CHARS,
): string[] {
  if (message.role === 'user') {
    const text = userMessageText(message);
    return text ? [`[User]: ${text}`] : [];
  }
  if (message.role === 'assistant') {
    const texts: string[] = [];
    const thinking: string[] = [];
    const calls: string[] = [];
    for (const block of message.content) {
      if (block.type === 'text') texts.push(block.text);
      else if (block.type === 'thinking') thinking.push(block.thinking);
      else {
        const args = Object.entries(block.arguments)
          .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
          .join(', ');
        calls.push(`${block.name}(${args})`);
      }
    }
    const parts: string[] = [];
    if (thinking.length > 0) parts.push(`[Assistant thinking]: ${thinking.join('\n')}`);
    if (texts.length > 0) parts.push(`[Assistant]: ${texts.join('\n')}`);
    if (calls.length > 0) parts.push(`[Assistant tool calls]: ${calls.join('; ')}`);
    return parts;
  }
  const text = message.content
    .filter((block) => block.type === 'text')
    .map((block) => (block.type === 'text' ? block.text : ''))
    .join('');
  if (!text) return [];
  if (toolResultMaxChars <= 0)
    return [`[Tool result]: [output of ${text.length} characters omitted]`];
  return [`[Tool result]: ${truncateForSummary(text, toolResultMaxChars)}`];
}

/** The conversation as pi serialises it: one paragraph per part, blank lines between. */
export function serializeConversation(messages: readonly LlmMessage[]): string {
  return messages.flatMap((message) => serializeMessage(message)).join('\n\n');
}
