import type { UserMessage } from '../../shared/messages.js';
import type { ProviderMessage } from '../models/model-stream.js';

/*
 * A conversation as plain text for a summary request. Serialising (instead of replaying the
 * messages) keeps the summarising model from answering the conversation instead of describing it.
 * The format is pi's, so summaries written by either tool read alike. The messages are first
 * converted as for a provider (`convertToLlm`).
 */

/** Longest tool result kept in a summary request before truncation, as in pi. */
export const TOOL_RESULT_MAX_CHARS = 2000;

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
  message: ProviderMessage,
  toolResultMaxChars: number = TOOL_RESULT_MAX_CHARS,
): string[] {
  // pi 1.6 leaves the prompt out of what a summary reads.
  if (message.role === 'system') return [];
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
export function serializeConversation(messages: readonly ProviderMessage[]): string {
  return messages.flatMap((message) => serializeMessage(message)).join('\n\n');
}
