import type { AgentSessionEvent } from '../../shared/agent-events.js';
import type { AssistantMessage } from '../../shared/messages.js';
import { isOverflowFrom } from '../models/context-overflow.js';
import type { ModelInfo } from '../models/model-catalog.js';

/*
 * pi's recovery from a context overflow: when a run's last reply says the context did not fit,
 * the overflowed attempt is omitted (a context_edit, as pi 1.6), the session compacts once and the
 * run continues from the compacted context. A second overflow stops with a clear error.
 */

const OVERFLOW_RETRY_FAILED =
  'Context overflow recovery failed after one compact-and-retry attempt. Try reducing context or switching to a larger-context model.';

export interface OverflowRecoverySteps {
  model: ModelInfo;
  /** Whether automatic compaction is available and switched on for this session. */
  enabled: boolean;
  signal: AbortSignal;
  omit(message: AssistantMessage): void;
  compact(): Promise<{ ok: boolean }>;
  /** Runs the agent loop again from the (compacted) context; answers its last reply. */
  rerun(): Promise<AssistantMessage | undefined>;
  emit(event: AgentSessionEvent): void;
}

export async function recoverFromOverflow(
  last: AssistantMessage | undefined,
  steps: OverflowRecoverySteps,
): Promise<void> {
  if (!last || !steps.enabled || steps.signal.aborted || !isOverflowFrom(last, steps.model)) return;
  steps.omit(last);
  const compacted = await steps.compact();
  if (!compacted.ok || steps.signal.aborted) return;
  const again = await steps.rerun();
  if (again && isOverflowFrom(again, steps.model)) {
    steps.emit({
      type: 'compaction_end',
      reason: 'overflow',
      aborted: false,
      willRetry: false,
      errorMessage: OVERFLOW_RETRY_FAILED,
    });
  }
}
