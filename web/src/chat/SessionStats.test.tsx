import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { UsageTable } from './SessionStats';

const usage = {
  userMessages: 2,
  assistantMessages: 3,
  toolCalls: 1,
  toolResults: 1,
  totalMessages: 7,
  tokens: { input: 1234567, output: 2500, cacheRead: 0, cacheWrite: 10, total: 1237077 },
  cost: 0.01234,
  byModel: [
    {
      key: 'openai/gpt-x',
      input: 1234567,
      output: 2500,
      cacheRead: 0,
      cacheWrite: 10,
      total: 1237077,
      cost: 0.01234,
    },
  ],
};

describe('UsageTable', () => {
  it('names its units in the headers and groups the figures', () => {
    const html = renderToStaticMarkup(<UsageTable caption="Whole session" usage={usage} />);
    expect(html).toContain('<caption>Whole session</caption>');
    expect(html).toContain('Input (tokens)');
    expect(html).toContain('Cost (USD)');
    expect(html).toContain('openai/gpt-x');
    expect(html).toContain('<td data-stat="input">1,234,567</td>');
    expect(html).toContain('<td data-stat="total">1,237,077</td>');
    expect(html).toContain('<td data-stat="cost">0.0123</td>');
    expect(html).toContain('7 (user 2, assistant 3, tool calls 1, tool results 1)');
  });
});
