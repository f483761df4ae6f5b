import type {
  AgentSessionEvent,
  CompactionReason,
  CompactionResult,
} from '../../shared/agent-events.js';
import type { CompactionContext, Compactor } from '../compaction/context-transforms.js';

/*
 * One compaction as the session runs it, with pi's `compaction_start` / `compaction_end` events
 * around it. The session owns the busy flag and the context; this owns the events' rules.
 */

export type CompactionOutcome =
  { ok: true; result: CompactionResult } | { ok: false; error: Error };

export interface CompactionRun {
  reason: CompactionReason;
  customInstructions: string | undefined;
  /** The run is retried after it (overflow recovery): said in `compaction_end`. */
  willRetry: boolean;
}

export async function compactWithEvents(
  compactor: Compactor,
  context: CompactionContext,
  run: CompactionRun,
  emit: (event: AgentSessionEvent) => void,
  /** Called after the compaction entry is written, before `compaction_end`. */
  compacted: () => void,
): Promise<CompactionOutcome> {
  const { reason, customInstructions, willRetry } = run;
  emit({ type: 'compaction_start', reason });
  try {
    const result = await compactor.compact(context, {
      reason,
      ...(customInstructions !== undefined ? { customInstructions } : {}),
    });
    compacted();
    emit({ type: 'compaction_end', reason, result, aborted: false, willRetry });
    return { ok: true, result };
  } catch (error) {
    const err = error instanceof Error ? error : new Error(String(error));
    // As pi: an aborted compaction carries no error; a failed manual one says what failed.
    const aborted = context.signal.aborted || err.name === 'AbortError';
    const errorMessage = reason === 'manual' ? `Compaction failed: ${err.message}` : err.message;
    emit({
      type: 'compaction_end',
      reason,
      aborted,
      willRetry: false,
      ...(aborted ? {} : { errorMessage }),
    });
    return { ok: false, error: err };
  }
}
