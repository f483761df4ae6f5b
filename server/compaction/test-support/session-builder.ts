import type { AgentMessage, AssistantMessage, ToolCall } from '../../../shared/messages.js';
import { emptyUsage } from '../../../shared/messages.js';
import { estimateTokens } from '../token-estimates.js';

/*
 * Appends realistic turns to a store (user prompt, assistant tool calls, tool results, answer),
 * with usage figures that grow like a real context, for tests that do not need a live agent.
 */

export interface AppendingStore {
  appendMessage(message: AgentMessage): string;
}

// Strictly increasing message times that never run ahead of the clock (entries written later,
// such as a compaction, must be newer than every message they summarise).
let clock = Date.now() - 10_000_000;
const tick = (): number => (clock = Math.min(clock + 1, Date.now()));

export function userMessage(text: string): AgentMessage {
  return { role: 'user', content: [{ type: 'text', text }], timestamp: tick() };
}

export function assistantMessage(
  text: string,
  contextTokens: number,
  toolCalls: ToolCall[] = [],
  model = { provider: 'arbor', id: 'arbor-demo' },
): AssistantMessage {
  const usage = emptyUsage();
  usage.input = contextTokens;
  usage.output = Math.ceil(text.length / 4);
  usage.totalTokens = usage.input + usage.output;
  return {
    role: 'assistant',
    content: [...(text ? [{ type: 'text' as const, text }] : []), ...toolCalls],
    api: 'openai-completions',
    provider: model.provider,
    model: model.id,
    usage,
    stopReason: toolCalls.length > 0 ? 'toolUse' : 'stop',
    timestamp: tick(),
  };
}

export function toolResultMessage(call: ToolCall, text: string): AgentMessage {
  return {
    role: 'toolResult',
    toolCallId: call.id,
    toolName: call.name,
    content: [{ type: 'text', text }],
    isError: false,
    timestamp: tick(),
  };
}

/** Running estimate of the context, so usage figures stay plausible. */
export class TurnWriter {
  private tokens = 0;
  readonly ids: string[] = [];
  constructor(private readonly store: AppendingStore) {}

  private add(message: AgentMessage): string {
    this.tokens += estimateTokens(message);
    const id = this.store.appendMessage(message);
    this.ids.push(id);
    return id;
  }

  user(text: string): string {
    return this.add(userMessage(text));
  }

  /** One turn: a request, `tools` read/edit calls with results of `resultChars`, an answer. */
  turn(
    request: string,
    opts: { tools?: number; resultChars?: number; answer?: string } = {},
  ): void {
    this.user(request);
    const tools = opts.tools ?? 1;
    for (let i = 0; i < tools; i++) {
      const name = i % 2 === 0 ? 'read' : 'edit';
      const call: ToolCall = {
        type: 'toolCall',
        id: `call_${this.ids.length}_${i}`,
        name,
        arguments: { path: `src/${request.split(/\s+/)[0] ?? 'file'}-${i}.ts` },
      };
      this.add(assistantMessage('', this.tokens, [call]));
      this.add(
        toolResultMessage(
          call,
          `result ${i} of ${request}: ${'x'.repeat(opts.resultChars ?? 400)}`,
        ),
      );
    }
    this.add(assistantMessage(opts.answer ?? `Done with: ${request}`, this.tokens));
  }
}
