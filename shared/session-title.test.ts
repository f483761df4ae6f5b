import { describe, expect, it } from 'vitest';
import { sessionTitle, titleFileName } from './session-title.js';

describe('sessionTitle', () => {
  it('prefers the name, then the first prompt', () => {
    expect(sessionTitle({ name: 'Named', firstMessage: 'x' })).toBe('Named');
    expect(sessionTitle({ name: '  ', firstMessage: 'hello' })).toBe('hello');
    expect(sessionTitle({ firstMessage: 'hello' })).toBe('hello');
    expect(sessionTitle({ firstMessage: '(no messages)' })).toBe('Untitled session');
  });
});

describe('titleFileName', () => {
  it('keeps the first words, in any script, and nothing a file system or a header minds', () => {
    expect(titleFileName('Fix the login bug!', '.html')).toBe('fix-the-login-bug.html');
    expect(titleFileName('Résumé für Ünïcode 日本語', '.html')).toBe(
      'résumé-für-ünïcode-日本語.html',
    );
    expect(titleFileName('../../etc/passwd"\r\nX: y', '.jsonl')).toBe('etc-passwd-x-y.jsonl');
    expect(titleFileName('!!!', '.html')).toBe('session.html');
    const long = titleFileName('word '.repeat(40), '-path.html');
    expect(long.length).toBeLessThanOrEqual(60 + '-path.html'.length);
    expect(long.endsWith('word-path.html')).toBe(true);
  });
});
