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
        modelId="claude-sonnet-9"
        models={[demo]}
        disabled={false}
        problem={problem}
        onModel={() => undefined}
      />,
    );
    expect(html).toContain('claude-sonnet-9 (not configured here)');
    expect(html).toContain('role="note"');
    expect(html).toContain('not configured here</span>');
    expect(html).toContain(`title="${problem.replace(/'/g, '&#x27;')}"`);
    expect(html).toMatch(/<option value="arbor-demo">Arbor demo model<\/option>/);
  });
});
