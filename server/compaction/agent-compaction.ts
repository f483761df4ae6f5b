import fs from 'node:fs';
import type { CompactionResult } from '../../shared/agent-events.js';
import type { AgentMessage } from '../../shared/messages.js';
import type {
  CompactionContext,
  Compactor,
  ContextStep,
  ContextStepContext,
} from './context-transforms.js';
import type { SessionStore } from '../store/session-store.js';
import { collectEntriesForBranchSummarySliced, generateBranchSummary } from './branch-summary.js';
import {
  parseSummarySettings,
  resolveSummarySettings,
  settingsForWindow,
  type SummarySettings,
} from './compaction-settings.js';
import { ContextSizer } from './context-size.js';
import {
  compactSession,
  CompactionRefusedError,
  prepareSessionCompaction,
  type PreparedCompaction,
} from './session-compaction.js';
import { Summarizer } from './summarizer.js';
import { isAbortError, type SummaryModelInfo } from './summary-model.js';
import type { CompactionSettings } from './token-estimates.js';
import { applyThreshold, effectiveKeepRecent } from './threshold-policy.js';

/*
 * Arbor's compaction plugged into the agent session's seam (server/compaction/context-transforms.ts):
 * a `Compactor` for manual compaction, overflow recovery and branch summaries, and the threshold
 * check as the first `ContextStep`, run before every model call. One pair per session: the
 * threshold check remembers the request overhead it last measured.
 */

export interface ArborCompaction {
  compactor: Compactor;
  contextSteps: ContextStep[];
}

/**
 * `serverSettings` is the server's layer (`{compaction?, branchSummary?}`, or just the fields of
 * `compaction`); the workspace's `.arbor/settings.json` overrides it. Malformed settings throw
 * `SummarySettingsError` naming the source and the field.
 */
export function createArborCompaction(serverSettings?: unknown): ArborCompaction {
  const server = serverLayer(serverSettings);
  const sizer = new ContextSizer();
  const settingsFor = (store: SessionStore): SummarySettings => {
    const workspace = store.cwd;
    const isDir =
      workspace !== '' && fs.statSync(workspace, { throwIfNoEntry: false })?.isDirectory();
    return resolveSummarySettings({ server, ...(isDir ? { workspace } : {}) });
  };

  /** Set by the threshold step for the compaction it is about to ask the session for. */
  let roundOverride: { keep: number; cutAtLatest: boolean } | undefined;
  /** The plan the threshold step made for that compaction, so the path is not planned twice. */
  let roundPlan: { key: string; prepared: PreparedCompaction } | undefined;

  const compactor: Compactor = {
    isEnabled: (store) => settingsFor(store).compaction.enabled,

    async compact(context, options): Promise<CompactionResult> {
      const settings = settingsForWindow(
        settingsFor(context.store).compaction,
        context.model.contextWindow,
      );
      const automatic = options.reason !== 'manual';
      const keepRecentTokens = automatic
        ? (roundOverride?.keep ?? effectiveKeepRecent(settings, context.model, sizer.overhead))
        : settings.keepRecentTokens;
      // Overflow recovery may use the last-resort cut: the context is known not to fit.
      const cutAtLatest = roundOverride?.cutAtLatest ?? options.reason === 'overflow';
      roundOverride = undefined;
      const roundSettings = { ...settings, keepRecentTokens };
      const planned =
        roundPlan?.key === planKey(roundSettings, cutAtLatest, options.reason, context.model)
          ? roundPlan.prepared
          : undefined;
      roundPlan = undefined;
      const compacting = compactSession(
        {
          store: context.store,
          model: context.model,
          complete: context.complete,
          settings: roundSettings,
          cutAtLatest,
          reason: options.reason,
          signal: context.signal,
          thinkingLevel: context.thinkingLevel,
          ...(options.customInstructions ? { customInstructions: options.customInstructions } : {}),
        },
        planned,
      );
      if (!automatic) return compacting;
      // Automatic failures reach the user only as compaction_end's message: say what failed.
      return compacting.catch((error: unknown) => {
        if (context.signal.aborted || isAbortError(error)) throw error;
        const prefix =
          options.reason === 'overflow'
            ? 'Context overflow recovery failed'
            : 'Auto-compaction failed';
        const message = error instanceof Error ? error.message : String(error);
        throw new Error(`${prefix}: ${message}`, { cause: error });
      });
    },

    async summarizeBranch(context: CompactionContext, options) {
      const { entries } = await collectEntriesForBranchSummarySliced(
        context.store,
        options.oldLeafId,
        options.targetId,
      );
      if (entries.length === 0) return undefined;
      const summarizer = new Summarizer({ model: context.model, complete: context.complete });
      const result = await generateBranchSummary(summarizer, entries, {
        signal: context.signal,
        reserveTokens: settingsFor(context.store).branchSummary.reserveTokens,
        ...(options.customInstructions ? { customInstructions: options.customInstructions } : {}),
        ...(options.replaceInstructions ? { replaceInstructions: true } : {}),
      });
      return { summary: result.summary, details: result.details };
    },
  };

  const thresholdStep: ContextStep = (messages: AgentMessage[], context: ContextStepContext) =>
    applyThreshold({
      messages,
      model: context.model,
      settings: settingsForWindow(
        settingsFor(context.store).compaction,
        context.model.contextWindow,
      ),
      sizer,
      canPlan: async (roundSettings, cutAtLatest) => {
        roundPlan = undefined;
        try {
          const prepared = await prepareSessionCompaction({
            store: context.store,
            model: context.model,
            settings: roundSettings,
            cutAtLatest,
            reason: 'threshold',
            signal: context.signal,
          });
          const key = planKey(roundSettings, cutAtLatest, 'threshold', context.model);
          roundPlan = { key, prepared };
          return true;
        } catch (error) {
          // Nothing to summarise, or the run was aborted meanwhile: no compaction this call.
          if (error instanceof CompactionRefusedError) return false;
          if (context.signal.aborted || isAbortError(error)) return false;
          throw error;
        }
      },
      compactRound: async (keep, cutAtLatest) => {
        roundOverride = { keep, cutAtLatest };
        try {
          return await context.compact('threshold');
        } finally {
          roundOverride = undefined;
          roundPlan = undefined;
        }
      },
    });

  return { compactor, contextSteps: [thresholdStep] };
}

/** What a plan depends on besides the path (whose leaf `compactSession` checks). */
function planKey(
  settings: CompactionSettings,
  cutAtLatest: boolean,
  reason: string,
  model: SummaryModelInfo,
): string {
  const { enabled, reserveTokens, keepRecentTokens } = settings;
  const { contextWindow, maxOutputTokens, reasoning } = model;
  return JSON.stringify([enabled, reserveTokens, keepRecentTokens, cutAtLatest, reason]).concat(
    JSON.stringify([contextWindow, maxOutputTokens, reasoning]),
  );
}

function serverLayer(value: unknown): unknown {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'object' && ('compaction' in value || 'branchSummary' in value)) {
    return parseSummarySettings(value, 'server settings');
  }
  return parseSummarySettings({ compaction: value }, 'server settings');
}
