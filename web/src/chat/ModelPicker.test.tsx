import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ModelSummary } from '../../../shared/protocol';
import { detailsOf, ModelPicker } from './ModelPicker';
import { labelOf, matchesQuery, refOf, type ModelSearch } from './use-model-search';

const demo: ModelSummary = {
  id: 'arbor-demo',
  name: 'Arbor demo model',
  provider: 'arbor',
  contextWindow: 128_000,
  maxOutputTokens: 4096,
  reasoning: false,
  thinkingLevels: ['off'],
  images: true,
  price: { input: 0, output: 0 },
  demo: true,
};

const twin = (provider: string): ModelSummary => ({
  ...demo,
  demo: false,
  provider,
  id: 'gpt-4o',
  name: 'GPT-4o',
  contextWindow: 1_047_576,
  price: { input: 2.5, output: 10 },
});

/** A search over `models` as the hook gives it, with nothing typed. */
function searchOf(models: ModelSummary[]): ModelSearch {
  return {
    results: models,
    recent: [],
    total: undefined,
    searching: false,
    resolving: false,
    find: (ref) => models.find((m) => ref && m.provider === ref.provider && m.id === ref.modelId),
  };
}

const render = (props: Partial<Parameters<typeof ModelPicker>[0]>) =>
  renderToStaticMarkup(
    <ModelPicker
      model={null}
      search={searchOf([demo])}
      query=""
      onQuery={() => undefined}
      disabled={false}
      onModel={() => undefined}
      {...props}
    />,
  );

describe('the model picker', () => {
  it('is a combobox named "Model" that shows the session’s model by name and provider', () => {
    const html = render({
      model: { provider: 'openrouter', modelId: 'gpt-4o' },
      search: searchOf([twin('openai'), twin('openrouter')]),
    });
    expect(html).toMatch(
      /<input[^>]*aria-label="Model"[^>]*role="combobox"|role="combobox"[^>]*aria-label="Model"/,
    );
    expect(html).toContain('value="GPT-4o · openrouter"');
    expect(html).not.toContain('not configured here');
  });

  it("keeps a session's model the server does not know, saying why", () => {
    const problem =
      "This session's model anthropic/claude-sonnet-9 is not configured on this server: add its provider to models.json, or choose another model.";
    const html = render({ model: { provider: 'anthropic', modelId: 'claude-sonnet-9' }, problem });
    expect(html).toContain('value="anthropic/claude-sonnet-9"');
    expect(html).toContain('role="note"');
    expect(html).toContain('not configured here</span>');
    expect(html).toContain(`title="${problem.replace(/'/g, '&#x27;')}"`);
  });

  it('says "no key" beside a model without one, with the reason', () => {
    const keyless = { ...twin('openai'), noKey: 'No API key: set OPENAI_API_KEY' };
    const html = render({
      model: { provider: 'openai', modelId: 'gpt-4o' },
      search: searchOf([keyless]),
      problem: keyless.noKey,
    });
    expect(html).toContain('no key</span>');
    expect(html).toContain('title="No API key: set OPENAI_API_KEY"');
    expect(html).not.toContain('not configured here');
  });

  it('describes each model by its pair, window, price and key', () => {
    expect(labelOf(twin('openai'))).toBe('GPT-4o · openai');
    expect(detailsOf(twin('openai'))).toBe('openai/gpt-4o · 1M context · $2.5 / $10 per M tokens');
    expect(detailsOf({ ...twin('x'), contextWindow: 200_000, noKey: 'No API key' })).toBe(
      'x/gpt-4o · 200k context · $2.5 / $10 per M tokens · no key',
    );
    expect(detailsOf(demo)).toBe('arbor/arbor-demo · 128k context');
  });

  it('matches every typed word in the pair or the name, in any case', () => {
    expect(matchesQuery(twin('openrouter'), 'GPT router')).toBe(true);
    expect(matchesQuery(twin('openrouter'), 'gpt claude')).toBe(false);
    expect(matchesQuery(demo, '  ')).toBe(true);
    expect(refOf(demo)).toEqual({ provider: 'arbor', modelId: 'arbor-demo' });
  });
});
