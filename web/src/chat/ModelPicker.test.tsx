import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ModelSummary } from '../../../shared/protocol';
import { ModelPicker } from './ModelPicker';

const demo: ModelSummary = {
  id: 'arbor-demo',
  name: 'Arbor demo model',
  provider: 'arbor',
  contextWindow: 128_000,
  maxOutputTokens: 4096,
  reasoning: false,
  thinkingLevels: ['off'],
  images: true,
  demo: true,
};

describe('the model picker', () => {
  it("keeps a session's model the server does not know, saying why", () => {
    const problem =
      "This session's model anthropic/claude-sonnet-9 is not configured on this server: add its provider to models.json, or choose another model.";
    const html = renderToStaticMarkup(
      <ModelPicker
        model={{ provider: 'anthropic', modelId: 'claude-sonnet-9' }}
        models={[demo]}
        disabled={false}
        problem={problem}
        onModel={() => undefined}
      />,
    );
    expect(html).toContain('anthropic/claude-sonnet-9 (not configured here)');
    expect(html).toContain('role="note"');
    expect(html).toContain('not configured here</span>');
    expect(html).toContain(`title="${problem.replace(/'/g, '&#x27;')}"`);
    expect(html).toContain(
      '<optgroup label="arbor"><option value="arbor/arbor-demo">Arbor demo model</option>',
    );
  });

  it('tells apart the same id of two providers, by group, and shows the session’s pair', () => {
    const twin = (provider: string): ModelSummary => ({
      ...demo,
      demo: false,
      provider,
      id: 'gpt-4o',
      name: 'GPT-4o',
    });
    const html = renderToStaticMarkup(
      <ModelPicker
        model={{ provider: 'openrouter', modelId: 'gpt-4o' }}
        models={[twin('openai'), twin('openrouter')]}
        disabled={false}
        onModel={() => undefined}
      />,
    );
    expect(html).toContain(
      '<optgroup label="openai"><option value="openai/gpt-4o">GPT-4o</option></optgroup>',
    );
    expect(html).toContain(
      '<optgroup label="openrouter"><option value="openrouter/gpt-4o" selected="">GPT-4o</option></optgroup>',
    );
    expect(html).not.toContain('not configured here');
  });
});
