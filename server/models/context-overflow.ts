import type { AssistantMessage } from '../../shared/messages.js';

/*
 * "The context is too long", recognised as pi 0.73 recognises it (pi-ai utils/overflow.ts): a
 * provider error matching one of the known wordings, or a successful answer whose usage shows
 * more input than the window holds.
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

/** Wordings that look like overflow but are rate limits. */
const NON_OVERFLOW_PATTERNS: readonly RegExp[] = [
  /^(Throttling error|Service unavailable):/i,
  /rate limit/i,
  /too many requests/i,
];

export function isContextOverflow(message: AssistantMessage, contextWindow?: number): boolean {
  const error = message.errorMessage;
  if (message.stopReason === 'error' && error) {
    const excluded = NON_OVERFLOW_PATTERNS.some((pattern) => pattern.test(error));
    if (!excluded && OVERFLOW_PATTERNS.some((pattern) => pattern.test(error))) return true;
  }
  const input = message.usage.input + message.usage.cacheRead;
  if (contextWindow && message.stopReason === 'stop' && input > contextWindow) return true;
  if (
    contextWindow &&
    message.stopReason === 'length' &&
    message.usage.output === 0 &&
    input >= contextWindow * 0.99
  )
    return true;
  return false;
}

/**
 * An overflow the given model reported, as pi decides whether to recover: a failed answer from
 * that same model (an overflow from a smaller model the session has since left says nothing about
 * this one) whose error or usage says the context did not fit.
 */
export function isOverflowFrom(
  message: AssistantMessage,
  model: { provider: string; id: string; contextWindow: number },
): boolean {
  return (
    message.stopReason === 'error' &&
    message.provider === model.provider &&
    message.model === model.id &&
    isContextOverflow(message, model.contextWindow)
  );
}
