import { describe, expect, it } from 'vitest';
import { resolutionError, resolveModel } from './model-resolver.js';
import { resolveModelWithPi16 } from '../store/test-support/pi16-oracle.js';

/*
 * `arbor run --model` against `pi --model`: pi 1.6's own resolveCliModel and Arbor's resolver,
 * over pi's whole built-in catalog, with different providers holding keys.
 */

const TEXTS = [
  'gpt-4o',
  'openai/gpt-4o',
  'OPENAI/GPT-4O',
  '  gpt-4o  ',
  'gpt-4o:high',
  'gpt-4o:bogus',
  'sonnet',
  'anthropic/sonnet',
  'claude-sonnet-4-5',
  'claude-sonnet-4-5:xhigh',
  'opus',
  'gemini',
  'google/gemini',
  'kimi',
  'glm',
  'zai/glm-5',
  'openrouter/anthropic/claude-sonnet-4',
  'anthropic/claude-sonnet-4',
  'deepseek',
  'grok:low',
  'nothing-like-this-model',
  'openai/nothing-like-this-model',
];

const USABLE = [[], ['openai'], ['anthropic', 'openrouter'], ['amazon-bedrock', 'google-vertex']];

describe('arbor run --model reads a model name as pi 1.6 does', () => {
  it.each(USABLE.map((usable) => [usable.join(', ') || 'no provider', usable]))(
    'with keys for %s: the same model, thinking level, ambiguity or refusal as pi',
    async (_label, usable) => {
      const pi = await resolveModelWithPi16(TEXTS, usable as string[]);
      expect(pi.models.length).toBeGreaterThan(500);
      const keyed = new Set(usable as string[]);
      let resolved = 0;
      let ambiguous = 0;
      for (const theirs of pi.results) {
        const ours = resolveModel(theirs.text, pi.models, (provider) => keyed.has(provider));
        const what = `${theirs.text} (pi: ${theirs.error ?? theirs.warning ?? `${theirs.provider}/${theirs.id}`})`;
        if (theirs.error?.includes('ambiguous')) {
          expect(ours.status, what).toBe('ambiguous');
          ambiguous++;
          // The same candidates, in the same words but for the hint that names pi's flags.
          const words = resolutionError(
            theirs.text,
            ours as Exclude<typeof ours, { status: 'resolved' }>,
          );
          expect(words.split(':')[1]!.split('.')[0], what).toBe(
            theirs.error.split(':')[1]!.split('.')[0],
          );
        } else if (theirs.error || theirs.warning?.includes('custom model id')) {
          // pi tries an unknown id on the named provider; Arbor calls only models it describes.
          expect(ours.status, what).toBe('not-found');
        } else {
          expect(ours.status, what).toBe('resolved');
          if (ours.status !== 'resolved') continue;
          expect([ours.model.provider, ours.model.id, ours.thinkingLevel ?? null], what).toEqual([
            theirs.provider,
            theirs.id,
            theirs.thinkingLevel,
          ]);
          resolved++;
        }
      }
      expect(resolved).toBeGreaterThan(10);
      // Without keys, ids several providers offer stay ambiguous.
      if (keyed.size === 0) expect(ambiguous).toBeGreaterThan(0);
    },
  );

  it('names the candidates of an ambiguous id and says what to type', () => {
    const models = [
      { provider: 'openai', id: 'gpt-4o' },
      { provider: 'azure', id: 'gpt-4o' },
    ];
    const result = resolveModel('gpt-4o', models, () => false);
    expect(result.status).toBe('ambiguous');
    if (result.status !== 'ambiguous') return;
    expect(resolutionError('gpt-4o', result)).toBe(
      'Model "gpt-4o" is ambiguous across providers: azure/gpt-4o, openai/gpt-4o. No matching provider has a key. Use provider/id.',
    );
    expect(resolveModel('gpt-4o', models, (p) => p === 'azure')).toMatchObject({
      status: 'resolved',
      model: { provider: 'azure' },
    });
    expect(resolveModel('openai/gpt-4o:high', models, () => false)).toMatchObject({
      status: 'resolved',
      model: { provider: 'openai' },
      thinkingLevel: 'high',
    });
  });
});
