import type { AssistantMessage } from '../../shared/messages.js';
import { isRetryableAssistantError } from '@earendil-works/pi-ai';
import { isContextOverflow } from '../models/context-overflow.js';

/*
 * When and how long to retry a failed model call. Transient failures (429, 5xx, overloaded,
 * dropped connections) are retried with exponential backoff, or after the wait the provider asked
 * for; a context overflow is not retried here (compaction handles it).
 */

export interface RetrySettings {
  enabled: boolean;
  maxRetries: number;
  baseDelayMs: number;
  /** Cap on any single wait, including a provider's Retry-After. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_SETTINGS: RetrySettings = {
  enabled: true,
  maxRetries: 3,
  baseDelayMs: 2000,
  maxDelayMs: 60_000,
};

/**
 * A failed answer worth another try, by pi-ai's own rule (`isRetryableAssistantError`: load,
 * rate limits, 5xx, dropped connections and timeouts, but not quota or billing limits), except a
 * context overflow, which compaction handles.
 */
export function isRetryableError(message: AssistantMessage, contextWindow: number): boolean {
  if (message.stopReason !== 'error' || !message.errorMessage) return false;
  if (isContextOverflow(message, contextWindow)) return false;
  return isRetryableAssistantError(message as Parameters<typeof isRetryableAssistantError>[0]);
}

/** The wait before retry number `attempt` (1-based). */
export function retryDelayMs(
  settings: RetrySettings,
  attempt: number,
  retryAfterMs: number | undefined,
): number {
  const backoff = settings.baseDelayMs * 2 ** (attempt - 1);
  const wait = retryAfterMs ?? backoff;
  return Math.max(0, Math.min(wait, settings.maxDelayMs));
}

/** Resolves after `ms`, or rejects as soon as the signal aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new Error('aborted'));
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
