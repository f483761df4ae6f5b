import type { AgentMessage, ToolCall } from '../../../shared/messages.js';
import { assistantMessage, toolResultMessage, userMessage } from '../../test-support/messages.js';
import { estimateTokens } from '../token-estimates.js';

/*
 * Appends realistic turns to a store (user prompt, assistant tool calls, tool results, answer),
 * with usage figures that grow like a real context, for tests that do not need a live agent.
 */

export interface AppendingStore {
  appendMessage(message: AgentMessage): string;
}

/** The model the turns' answers name. */
const MODEL = { provider: 'arbor', model: 'arbor-demo' };

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
      this.add(assistantMessage('', { contextTokens: this.tokens, toolCalls: [call], ...MODEL }));
      this.add(
        toolResultMessage(
          call,
          `result ${i} of ${request}: ${'x'.repeat(opts.resultChars ?? 400)}`,
        ),
      );
    }
    this.add(
      assistantMessage(opts.answer ?? `Done with: ${request}`, {
        contextTokens: this.tokens,
        ...MODEL,
      }),
    );
  }
}
