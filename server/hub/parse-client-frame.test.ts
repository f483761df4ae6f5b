import { describe, expect, it } from 'vitest';
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
