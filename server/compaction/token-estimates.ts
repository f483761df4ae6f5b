import type { AgentMessage, Usage } from '../../shared/messages.js';

/*
 * Token accounting for compaction, with pi 0.73's numbers: a message costs ceil(chars / 4), the
 * context costs the last valid usage report plus estimates for what came after it.
 */

export interface CompactionSettings {
  enabled: boolean;
  /** Tokens kept free for the answer; compaction starts when the context crosses window − reserve. */
  reserveTokens: number;
  /** Roughly how many tokens of recent messages a compaction keeps verbatim. */
  keepRecentTokens: number;
}

export const DEFAULT_COMPACTION_SETTINGS: Readonly<CompactionSettings> = Object.freeze({
  enabled: true,
  reserveTokens: 16384,
  keepRecentTokens: 20000,
});

/** An image counts as 4,800 characters (1,200 tokens), as pi counts it. */
export const IMAGE_CHARS = 4800;

export interface ContextTokenEstimate {
  tokens: number;
  usageTokens: number;
  trailingTokens: number;
  lastUsageIndex: number | null;
}

/** The size of a context as a usage report states it: the total if given and non-zero, else the sum. */
export function calculateContextTokens(usage: Usage): number {
  return usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

/** The estimated tokens of one message: ceil(chars / 4), counted per role as pi counts them. */
export function estimateTokens(message: AgentMessage): number {
  return Math.ceil(messageChars(message) / 4);
}

/** Characters that `estimateTokens` counts for a message. */
export function messageChars(message: AgentMessage): number {
  switch (message.role) {
    case 'system': {
      // pi 1.6: the text, every section and the added tools' declarations as JSON.
      let chars =
        typeof message.content === 'string'
          ? message.content.length
          : message.content.reduce((sum, block) => sum + block.text.length, 0);
      for (const section of Object.values(message.sections ?? {})) chars += section?.length ?? 0;
      if (message.toolsAdded) chars += JSON.stringify(message.toolsAdded).length;
      return chars;
    }
    case 'user': {
      if (typeof message.content === 'string') return message.content.length;
      let chars = 0;
      for (const block of message.content) if (block.type === 'text') chars += block.text.length;
      return chars;
    }
    case 'assistant': {
      let chars = 0;
      for (const block of message.content) {
        if (block.type === 'text') chars += block.text.length;
        else if (block.type === 'thinking') chars += block.thinking.length;
        else chars += block.name.length + JSON.stringify(block.arguments).length;
      }
      return chars;
    }
    case 'custom':
    case 'toolResult': {
      if (typeof message.content === 'string') return message.content.length;
      let chars = 0;
      for (const block of message.content) {
        if (block.type === 'text') chars += block.text.length;
        else chars += IMAGE_CHARS;
      }
      return chars;
    }
    case 'bashExecution':
      return message.command.length + message.output.length;
    case 'branchSummary':
    case 'compactionSummary':
      return message.summary.length;
    case 'hookMessage':
      // A v2 role that migration renames; pi gives it no weight either.
      return 0;
  }
}

/** The usage of an assistant message that completed normally (aborted and failed ones report none). */
export function validAssistantUsage(message: AgentMessage): Usage | undefined {
  if (message.role !== 'assistant') return undefined;
  if (message.stopReason === 'aborted' || message.stopReason === 'error') return undefined;
  return message.usage;
}

/**
 * The size of a context: the last valid usage report plus estimates of every later message, or the
 * sum of estimates when no message reports usage.
 */
export function estimateContextTokens(messages: readonly AgentMessage[]): ContextTokenEstimate {
  let lastUsageIndex = -1;
  let usage: Usage | undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    usage = message ? validAssistantUsage(message) : undefined;
    if (usage) {
      lastUsageIndex = i;
      break;
    }
  }
  if (!usage) {
    const estimated = sumEstimates(messages, 0);
    return { tokens: estimated, usageTokens: 0, trailingTokens: estimated, lastUsageIndex: null };
  }
  const usageTokens = calculateContextTokens(usage);
  const trailingTokens = sumEstimates(messages, lastUsageIndex + 1);
  return { tokens: usageTokens + trailingTokens, usageTokens, trailingTokens, lastUsageIndex };
}

function sumEstimates(messages: readonly AgentMessage[], from: number): number {
  let total = 0;
  for (let i = from; i < messages.length; i++) {
    const message = messages[i];
    if (message) total += estimateTokens(message);
  }
  return total;
}

/** True when compaction is on and the context has crossed `contextWindow − reserveTokens`. */
export function shouldCompact(
  contextTokens: number,
  contextWindow: number,
  settings: Pick<CompactionSettings, 'enabled' | 'reserveTokens'>,
): boolean {
  if (!settings.enabled) return false;
  return contextTokens > contextWindow - settings.reserveTokens;
}
