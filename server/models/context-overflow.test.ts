import { describe, expect, it } from 'vitest';
import { emptyUsage, type AssistantMessage } from '../../shared/messages.js';
import { isOverflowFrom } from './context-overflow.js';

/*
 * Which failed answers start overflow recovery (the provider said the context was too long).
 */

const model = { provider: 'arbor', id: 'arbor-demo', contextWindow: 4000 };

function failed(overrides: Partial<AssistantMessage> = {}): AssistantMessage {
  return {
    role: 'assistant',
    content: [],
    api: 'openai-completions',
    provider: 'arbor',
    model: 'arbor-demo',
    usage: emptyUsage(),
    stopReason: 'error',
    errorMessage:
      "400 This model's maximum context length is 4000 tokens. However, your messages resulted in 4500 tokens. Please reduce the length of the messages.",
    timestamp: Date.now(),
    ...overrides,
  };
}

describe('overflow recovery', () => {
  it('starts for an overflow the current model reported', () => {
    expect(isOverflowFrom(failed(), model)).toBe(true);
  });

  it("leaves another model's overflow, or an ordinary error, alone", () => {
    expect(isOverflowFrom(failed({ model: 'other' }), model)).toBe(false);
    expect(isOverflowFrom(failed({ provider: 'openai' }), model)).toBe(false);
    expect(isOverflowFrom(failed({ errorMessage: '503 server busy' }), model)).toBe(false);
    expect(isOverflowFrom(failed({ errorMessage: '429 rate limit: too many tokens' }), model)).toBe(
      false,
    );
  });

  it('does not start for an answer that did not fail', () => {
    expect(isOverflowFrom(failed({ stopReason: 'stop', errorMessage: undefined }), model)).toBe(
      false,
    );
  });
});
