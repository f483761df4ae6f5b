import type { AgentMessage, AssistantMessage, Usage } from '../../shared/messages.js';
import type { SessionEntry } from '../../shared/session-entries.js';

/*
 * Figures a session shows about itself: context usage as pi computes it (getContextUsage and
 * estimateContextTokens: the last good assistant usage plus chars/4 estimates of what came after)
 * and the cost of the active path.
 */

function usageTokens(usage: Usage): number {
  return usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

function goodUsage(message: AgentMessage): Usage | undefined {
  if (message.role !== 'assistant') return undefined;
  return message.stopReason === 'aborted' || message.stopReason === 'error'
    ? undefined
    : message.usage;
}

function textChars(content: string | { type: string; text?: string }[]): number {
  if (typeof content === 'string') return content.length;
  let chars = 0;
  for (const block of content) {
    if (block.type === 'text' && block.text) chars += block.text.length;
    if (block.type === 'image') chars += 4800;
  }
  return chars;
}

/** pi's estimateTokens: ceil(chars / 4) with pi's per-role counting. */
export function estimateTokens(message: AgentMessage): number {
  switch (message.role) {
    case 'user': {
      const content = message.content;
      const chars =
        typeof content === 'string'
          ? content.length
          : content.reduce((n, block) => n + (block.type === 'text' ? block.text.length : 0), 0);
      return Math.ceil(chars / 4);
    }
    case 'assistant': {
      let chars = 0;
      for (const block of message.content) {
        if (block.type === 'text') chars += block.text.length;
        else if (block.type === 'thinking') chars += block.thinking.length;
        else chars += block.name.length + JSON.stringify(block.arguments).length;
      }
      return Math.ceil(chars / 4);
    }
    case 'custom':
    case 'hookMessage':
    case 'toolResult':
      return Math.ceil(textChars(message.content) / 4);
    case 'bashExecution':
      return Math.ceil((message.command.length + message.output.length) / 4);
    case 'branchSummary':
    case 'compactionSummary':
      return Math.ceil(message.summary.length / 4);
  }
}

export function estimateContextTokens(messages: AgentMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const usage = goodUsage(messages[i]!);
    if (!usage) continue;
    let tokens = usageTokens(usage);
    for (let j = i + 1; j < messages.length; j++) tokens += estimateTokens(messages[j]!);
    return tokens;
  }
  return messages.reduce((sum, message) => sum + estimateTokens(message), 0);
}

export type ContextUsage = {
  tokens: number | null;
  contextWindow: number;
  percent: number | null;
};

/**
 * pi's getContextUsage: after a compaction the figure is unknown (null) until an assistant has
 * answered with usage since, because older usage counts the context before compaction.
 */
export function contextUsage(
  branch: SessionEntry[],
  messages: AgentMessage[],
  contextWindow: number,
): ContextUsage {
  let compactionIndex = -1;
  for (let i = branch.length - 1; i >= 0; i--)
    if (branch[i]!.type === 'compaction') {
      compactionIndex = i;
      break;
    }
  if (compactionIndex >= 0) {
    let known = false;
    for (let i = branch.length - 1; i > compactionIndex; i--) {
      const entry = branch[i]!;
      if (entry.type !== 'message' || entry.message.role !== 'assistant') continue;
      const usage = goodUsage(entry.message);
      if (!usage) continue;
      known = usageTokens(usage) > 0;
      break;
    }
    if (!known) return { tokens: null, contextWindow, percent: null };
  }
  const tokens = estimateContextTokens(messages);
  return {
    tokens,
    contextWindow,
    percent: contextWindow > 0 ? (tokens / contextWindow) * 100 : null,
  };
}

/** USD spent by the assistant messages on the active path. */
export function pathCost(branch: SessionEntry[]): number {
  let total = 0;
  for (const entry of branch) {
    if (entry.type !== 'message' || entry.message.role !== 'assistant') continue;
    total += (entry.message as AssistantMessage).usage.cost?.total ?? 0;
  }
  return total;
}
