import type { AgentMessage } from '../../shared/messages.js';
import { CompactionLoopError } from './compaction-errors.js';
import { sumEstimates, type ContextSizer } from './context-size.js';
import { summaryOutputBudget } from './summary-requests.js';
import { shouldCompact, type CompactionSettings } from './token-estimates.js';

/*
 * What the threshold check does before a model call. pi compacts once with its kept budget; on a
 * small window, where the system prompt and tool definitions take a large share, that can leave
 * the context still over the line (and the next call over the window). So the kept budget leaves
 * room for the request's overhead and the summary, and when one compaction is not enough another
 * round keeps half as much, at most three rounds. A round that frees nothing stops the turn.
 */

export const MAX_THRESHOLD_ROUNDS = 3;

/**
 * The kept budget for an automatic compaction: the configured one, but never so large that the
 * compacted context (overhead + summary + kept part) would sit at the threshold again.
 */
export function effectiveKeepRecent(
  settings: CompactionSettings,
  model: { contextWindow: number; maxOutputTokens: number },
  overheadTokens: number,
): number {
  const window = model.contextWindow;
  const summary = summaryOutputBudget(
    { ...model, reasoning: false },
    Math.floor(0.8 * settings.reserveTokens),
  );
  const room = Math.floor((window - settings.reserveTokens - overheadTokens - summary) / 2);
  return Math.max(1, Math.min(settings.keepRecentTokens, Math.max(Math.floor(window / 16), room)));
}

export interface ThresholdInput {
  messages: AgentMessage[];
  model: { contextWindow: number; maxOutputTokens: number };
  /** Scaled to the window. */
  settings: CompactionSettings;
  sizer: ContextSizer;
  /**
   * Whether a compaction keeping about `settings.keepRecentTokens` (or, with `cutAtLatest`, as
   * little as a valid cut allows) has anything to summarise. Plans it off this thread; the plan
   * is kept for the round that follows.
   */
  canPlan(settings: CompactionSettings, cutAtLatest: boolean): Promise<boolean>;
  /**
   * Runs one compaction keeping about `keepRecentTokens` (or, with `cutAtLatest`, as little as a
   * valid cut allows) and returns the rebuilt context, or undefined when it failed or was aborted
   * (already reported).
   */
  compactRound(keepRecentTokens: number, cutAtLatest: boolean): Promise<AgentMessage[] | undefined>;
}

/**
 * The context to send: unchanged below the threshold, else compacted (in up to three rounds).
 * Throws `CompactionLoopError` when a round frees no room.
 */
export async function applyThreshold(input: ThresholdInput): Promise<AgentMessage[]> {
  const window = input.model.contextWindow;
  const { settings, sizer } = input;
  if (!settings.enabled) return input.messages;
  let current = input.messages;
  let keep = effectiveKeepRecent(settings, input.model, sizer.overhead);
  for (let round = 0; round < MAX_THRESHOLD_ROUNDS; round++) {
    const tokens = await sizer.contextTokens(current);
    if (!shouldCompact(tokens, window, settings)) return current;
    const roundSettings = { ...settings, keepRecentTokens: keep };
    let cutAtLatest = false;
    if (!(await input.canPlan(roundSettings, false))) {
      // pi's cut keeps everything (the newest messages alone exceed the kept budget). When the
      // request still fits the window the call goes ahead; otherwise the last-resort cut.
      const fitsWindow = tokens <= window - Math.floor(settings.reserveTokens / 4);
      if (fitsWindow || !(await input.canPlan(roundSettings, true))) return current;
      cutAtLatest = true;
    }
    // Measured before compacting: the session may rebuild `current` in place.
    const before = await sumEstimates(current);
    const rebuilt = await input.compactRound(keep, cutAtLatest);
    if (!rebuilt) return current;
    const after = await sumEstimates(rebuilt);
    if (after >= before) throw new CompactionLoopError(before, after);
    current = rebuilt;
    keep = Math.max(1, Math.floor(keep / 2));
  }
  return current;
}
