import type { AgentEvent } from '../../shared/agent-events.js';
import type { AgentMessage, AssistantMessage } from '../../shared/messages.js';
import type { ModelInfo } from '../models/model-catalog.js';
import { emptyAssistantMessage } from '../models/pi-ai-stream.js';
import type { SessionStore } from '../store/session-store.js';
import { STORAGE_MESSAGES, storageProblem } from '../errors/storage-errors.js';
import type { AgentSessionDeps } from './agent-session-types.js';

/*
 * Writes a run's messages to the store (at message_end) and what a session's first prompt must
 * record first. When an append fails (a full disk) nothing more of the run is written, since every
 * later entry's parent would be missing; the session then stops the run and shows the failure as
 * the run's error (decision 053).
 */
export class RunRecorder {
  private failure: unknown;
  private failureShown = false;

  private readonly store: SessionStore;
  /** False until the file records the model in use (see createAgentSession). */
  private modelRecorded: boolean;
  private thinkingLevelRecorded: boolean;

  constructor(deps: Pick<AgentSessionDeps, 'store' | 'modelRecorded' | 'thinkingLevelRecorded'>) {
    this.store = deps.store;
    this.modelRecorded = deps.modelRecorded ?? true;
    this.thinkingLevelRecorded = deps.thinkingLevelRecorded ?? true;
  }

  /**
   * Starts a prompt's run: no failure yet, and what the file does not say yet recorded first (the
   * model in use, and for a session with no entries the thinking level), since opening never
   * writes.
   */
  start(model: ModelInfo, thinkingLevel: string): void {
    this.failure = undefined;
    this.failureShown = false;
    if (!this.modelRecorded) {
      this.store.appendModelChange(model.provider, model.id);
      this.modelRecorded = true;
    }
    if (!this.thinkingLevelRecorded) {
      this.store.appendThinkingLevelChange(thinkingLevel);
      this.thinkingLevelRecorded = true;
    }
  }

  /** The append that failed in the current run, if one did. */
  get failed(): unknown {
    return this.failure;
  }

  /** The entry each message of the session's runs was appended as. */
  private readonly entryIds = new WeakMap<AgentMessage, string>();

  /**
   * Appends a message of the run and returns its entry id; undefined when this or an earlier
   * append of the run failed.
   */
  append(message: AgentMessage, author?: string): string | undefined {
    if (this.failure !== undefined) return undefined;
    try {
      const id = this.store.appendMessage(message, author);
      this.entryIds.set(message, id);
      return id;
    } catch (error) {
      this.failure = error;
      return undefined;
    }
  }

  /**
   * Once per failed run, just before its agent_end: an error message as the run's error. It is not
   * saved (saving is what failed) and names no path.
   */
  showFailure(model: ModelInfo, emit: (event: AgentEvent) => void): void {
    if (this.failure === undefined || this.failureShown) return;
    this.failureShown = true;
    const problem = storageProblem(this.failure);
    const message: AssistantMessage = {
      ...emptyAssistantMessage(model),
      stopReason: 'error',
      errorMessage: problem
        ? STORAGE_MESSAGES[problem]
        : 'The session could not be saved, so the run was stopped. Everything saved before is kept.',
    };
    emit({ type: 'message_start', message });
    emit({ type: 'message_end', message });
  }

  /**
   * pi 1.6's omission of a failed attempt before its retry: a `context_edit` with no replacement
   * for the attempt's entry, so the attempt stays in the file, the chat and the cost but no later
   * request holds it (decision 063). False when the edit could not be appended (then, as for
   * any failed append, nothing more of the run is written).
   */
  omit(message: AgentMessage): boolean {
    if (this.failure !== undefined) return false;
    const id = this.entryIds.get(message);
    if (id === undefined) return true;
    try {
      this.store.appendContextEdit(id, { hide: true });
      return true;
    } catch (error) {
      this.failure = error;
      return false;
    }
  }

  /** The user picked a model or level: the file says so from now on. */
  modelChanged(): void {
    this.modelRecorded = true;
  }
  thinkingLevelChanged(): void {
    this.thinkingLevelRecorded = true;
  }
}
