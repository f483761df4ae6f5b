import { isContextOverflow as piIsContextOverflow } from '@earendil-works/pi-ai';
import type { AssistantMessage } from '../../shared/messages.js';

/*
 * "The context is too long", recognised by pi-ai's own rule (`isContextOverflow`: a provider error
 * in one of the known wordings, or an answer whose usage shows more input than the window holds),
 * so Arbor and pi start recovery on the same answers.
 */

export function isContextOverflow(message: AssistantMessage, contextWindow?: number): boolean {
  return piIsContextOverflow(message as Parameters<typeof piIsContextOverflow>[0], contextWindow);
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
