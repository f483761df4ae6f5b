import type { AgentMessage } from '../../shared/messages.js';

/*
 * Recognising "the context is too long" in a provider's answer, with the patterns pi 0.73 knows,
 * plus the silent kinds: usage larger than the window, or a window filled with no room to answer.
 */

const OVERFLOW_PATTERNS: readonly RegExp[] = [
  /prompt is too long/i,
  /request_too_large/i,
  /input is too long for requested model/i,
  /exceeds the context window/i,
  /input token count.*exceeds the maximum/i,
  /maximum prompt length is \d+/i,
  /reduce the length of the messages/i,
  /maximum context length is \d+ tokens/i,
  /exceeds the limit of \d+/i,
  /exceeds the available context size/i,
  /greater than the context length/i,
  /context window exceeds limit/i,
  /exceeded model token limit/i,
  /too large for model with \d+ maximum context length/i,
  /model_context_window_exceeded/i,
  /prompt too long; exceeded (?:max )?context length/i,
  /context[_ ]length[_ ]exceeded/i,
  /too many tokens/i,
  /token limit exceeded/i,
  /^4(?:00|13)\s*(?:status code)?\s*\(no body\)/i,
];

/** Errors that mention tokens but are about rate, not size. */
const NOT_OVERFLOW_PATTERNS: readonly RegExp[] = [
  /^(Throttling error|Service unavailable):/i,
  /rate limit/i,
  /too many requests/i,
];

/** True when an assistant message reports that its request did not fit the model's context. */
export function isContextOverflow(message: AgentMessage, contextWindow?: number): boolean {
  if (message.role !== 'assistant') return false;
  const error = message.errorMessage;
  if (message.stopReason === 'error' && error) {
    const notOverflow = NOT_OVERFLOW_PATTERNS.some((pattern) => pattern.test(error));
    if (!notOverflow && OVERFLOW_PATTERNS.some((pattern) => pattern.test(error))) return true;
  }
  if (!contextWindow) return false;
  const input = message.usage.input + message.usage.cacheRead;
  if (message.stopReason === 'stop' && input > contextWindow) return true;
  return (
    message.stopReason === 'length' && message.usage.output === 0 && input >= contextWindow * 0.99
  );
}
