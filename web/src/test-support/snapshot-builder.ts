import type { AgentMessage, AssistantMessage } from '../../../shared/messages';
import type { EventFrame, SessionSnapshot } from '../../../shared/protocol';
import type { AgentSessionEvent } from '../../../shared/agent-events';
import type { TreeNode } from '../../../shared/session-entries';

export const SESSION_ID = 'sess-1';

/** A snapshot as the page holds it once its tree is decoded. */
export function snapshot(
  tree: TreeNode[],
  leafId: string | null,
  overrides: Partial<SessionSnapshot> = {},
): SessionSnapshot {
  return {
    type: 'snapshot',
    sessionId: SESSION_ID,
    workspaceId: 'ws',
    seq: 0,
    header: { type: 'session', version: 3, id: SESSION_ID, timestamp: '2026-01-01T00:00:00.000Z' },
    tree,
    leafId,
    messages: [],
    state: {
      isStreaming: false,
      isCompacting: false,
      provider: 'arbor',
      modelId: 'demo',
      thinkingLevel: 'off',
      steering: [],
      followUp: [],
      leafId,
      contextUsage: { tokens: 0, contextWindow: 1000, percent: 0 },
      cost: 0,
    },
    models: [
      {
        id: 'demo',
        name: 'Demo',
        provider: 'arbor',
        contextWindow: 1000,
        maxOutputTokens: 100,
        reasoning: false,
      },
    ],
    access: { canWrite: true, owner: null },
    streamingMessage: null,
    runningTools: [],
    ...overrides,
  };
}

export function frames(events: AgentSessionEvent[], firstSeq = 1): EventFrame[] {
  return events.map((event, i) => ({
    type: 'event',
    sessionId: SESSION_ID,
    seq: firstSeq + i,
    event,
  }));
}

export function userMessage(text: string): AgentMessage {
  return { role: 'user', content: [{ type: 'text', text }], timestamp: 1 };
}

export function assistantMessage(
  text: string,
  extra: Partial<AssistantMessage> = {},
): AssistantMessage {
  return {
    role: 'assistant',
    content: text ? [{ type: 'text', text }] : [],
    api: 'openai-completions',
    provider: 'arbor',
    model: 'demo',
    usage: {
      input: 100,
      output: 20,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 120,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.5 },
    },
    stopReason: 'stop',
    timestamp: 2,
    ...extra,
  };
}
