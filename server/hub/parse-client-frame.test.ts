import { describe, expect, it } from 'vitest';
import { MAX_PROMPT_CHARS } from '../../shared/protocol.js';
import { parseClientFrame } from './parse-client-frame.js';

const code = (text: string) => {
  const parsed = parseClientFrame(text);
  return parsed.ok ? 'ok' : parsed.error.code;
};

describe('parseClientFrame', () => {
  it('accepts hello and well-formed commands', () => {
    expect(code('{"type":"hello","protocolVersion":1}')).toBe('ok');
    expect(code('{"type":"prompt","id":"1","sessionId":"abc","text":"hi"}')).toBe('ok');
  });
  it('names what is wrong with a frame', () => {
    expect(code('not json')).toBe('bad_frame');
    expect(code('[1,2]')).toBe('bad_frame');
    expect(code('{"id":"1"}')).toBe('bad_frame');
    expect(code('{"type":"rm_rf","id":"1"}')).toBe('unknown_command');
    expect(code('{"type":"prompt","id":"1","sessionId":"abc","text":5}')).toBe('invalid_argument');
  });
  it('refuses path-like session and entry ids before any lookup', () => {
    for (const id of ['../../etc/passwd', '/abs', 'a/b', '..', 'a\\b', '']) {
      expect(code(JSON.stringify({ type: 'subscribe', id: '1', sessionId: id }))).toBe(
        'invalid_argument',
      );
      expect(code(JSON.stringify({ type: 'fork', id: '1', sessionId: 's', entryId: id }))).toBe(
        'invalid_argument',
      );
    }
  });
  it('answers with the request id when the frame had one', () => {
    const parsed = parseClientFrame('{"type":"get_tree","id":"r7"}');
    expect(parsed).toMatchObject({ ok: false, id: 'r7', error: { code: 'invalid_argument' } });
  });
  it('drops prototype-pollution keys instead of applying them', () => {
    const parsed = parseClientFrame(
      '{"type":"ping","id":"1","__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}',
    );
    expect(parsed.ok).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    if (parsed.ok) expect(Object.keys(parsed.message)).toEqual(['type', 'id']);
  });
});

describe('what a refused command says', () => {
  const message = (frame: Record<string, unknown>) => {
    const parsed = parseClientFrame(JSON.stringify(frame));
    return parsed.ok ? 'ok' : parsed.error.message;
  };
  it('says how long a prompt over the limit is, and the limit, in words', () => {
    const text = 'x'.repeat(MAX_PROMPT_CHARS + 1);
    expect(message({ type: 'prompt', id: '1', sessionId: 's', text })).toBe(
      'The message is 1,000,001 characters; the limit is 1,000,000.',
    );
    expect(message({ type: 'steer', id: '1', sessionId: 's', text })).toBe(
      'The message is 1,000,001 characters; the limit is 1,000,000.',
    );
  });
  it('names the field and the problem without zod’s wording', () => {
    expect(message({ type: 'prompt', id: '1', sessionId: 's' })).toBe('The message is missing.');
    expect(message({ type: 'prompt', id: '1', sessionId: 's', text: 5 })).toBe(
      'The message should be text.',
    );
    expect(message({ type: 'set_session_name', id: '1', sessionId: 's', name: '' })).toBe(
      'The name is empty.',
    );
    expect(
      message({ type: 'set_label', id: '1', sessionId: 's', entryId: 'e', label: 'l'.repeat(201) }),
    ).toBe('The label is 201 characters; the limit is 200.');
    expect(message({ type: 'set_thinking_level', id: '1', sessionId: 's', level: 'loud' })).toMatch(
      /^The thinking level must be one of: off, minimal, low/,
    );
    expect(message({ type: 'subscribe', id: '1', sessionId: '../x' })).toBe(
      'The session id is not valid: not a session id.',
    );
    for (const text of ['Too big', 'expected', '<=']) {
      expect(
        message({
          type: 'prompt',
          id: '1',
          sessionId: 's',
          text: 'x'.repeat(MAX_PROMPT_CHARS + 1),
        }),
      ).not.toContain(text);
    }
  });
});
