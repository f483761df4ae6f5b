import type { AssistantMessage } from '../../shared/messages.js';
import { contentText } from '../../shared/messages.js';
import type { CompleteFn, CompletionRequest } from './context-transforms.js';
import { CodedError } from '../errors/coded-error.js';

/*
 * The narrow view of a model that summaries need: its window, how much it may answer, and one
 * call that completes a request (the session's `CompleteFn`, over its own stream function).
 */

export interface SummaryModelInfo {
  contextWindow: number;
  maxOutputTokens: number;
  reasoning: boolean;
}

export class SummaryAbortedError extends CodedError {
  readonly code = 'compaction_aborted';
  constructor(message = 'Compaction cancelled') {
    super(message);
    this.name = 'AbortError';
  }
}

export function isAbortError(error: unknown): boolean {
  return (
    error instanceof SummaryAbortedError ||
    (error instanceof Error && (error.name === 'AbortError' || error.name === 'APIUserAbortError'))
  );
}

/** Asks the model and returns its text; throws on error, `SummaryAbortedError` on abort. */
export async function completeText(
  complete: CompleteFn,
  request: CompletionRequest,
  signal: AbortSignal | undefined,
  failurePrefix: string,
): Promise<string> {
  if (signal?.aborted) throw new SummaryAbortedError();
  let response: AssistantMessage;
  try {
    response = await complete(request, signal);
  } catch (error) {
    if (signal?.aborted || isAbortError(error)) throw new SummaryAbortedError();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${failurePrefix}: ${reason}`, { cause: error });
  }
  if (signal?.aborted || response.stopReason === 'aborted') throw new SummaryAbortedError();
  if (response.stopReason === 'error') {
    throw new Error(`${failurePrefix}: ${response.errorMessage ?? 'unknown error'}`);
  }
  return contentText(response.content);
}
