import { describe, expect, it } from 'vitest';
import { keyStatus, patternsOf, shownProviders } from './provider-keys';

describe("an admin's settings", () => {
  it('lists providers with a key first, then by name, filtered by what was typed', () => {
    const rows = [
      { provider: 'zai', models: 3, key: null },
      { provider: 'anthropic', models: 20, key: 'subscription' as const },
      { provider: 'groq', models: 9, key: null },
      { provider: 'openai', models: 40, key: 'saved' as const },
    ];
    expect(shownProviders(rows, '').map((r) => r.provider)).toEqual([
      'anthropic',
      'openai',
      'groq',
      'zai',
    ]);
    expect(shownProviders(rows, 'O').map((r) => r.provider)).toEqual([
      'anthropic',
      'openai',
      'groq',
    ]);
    expect(keyStatus(rows[1]!)).toBe('Subscription (signed in with pi)');
    expect(keyStatus(rows[0]!)).toBe('No key');
  });

  it('reads the patterns one per line, blanks left out, and every model as null', () => {
    expect(patternsOf(false, ' anthropic/*\n\n gpt-5* \n')).toEqual(['anthropic/*', 'gpt-5*']);
    expect(patternsOf(true, 'anthropic/*')).toBeNull();
  });
});
