import fs from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { scanMessageLine } from './fast-scan.js';
import { nodeOfEntry } from './tree-node.js';
import { SessionStore } from './session-store.js';
import { makePreview } from './tree-node.js';
import { randomSession } from '../test-support/random-session.js';
import { copyFixture, useTempDirs } from './test-support/temp-dir.js';
import type { SessionEntry } from '../../shared/session-entries.js';

const tempDir = useTempDirs();

/** Every line of `file` the scanner accepts must give the node a full parse gives. */
function expectScanEqualsParse(file: string, scan = scanMessageLine): number {
  const bytes = fs.readFileSync(file);
  let start = bytes.indexOf(0x0a) + 1;
  let scanned = 0;
  while (start < bytes.length) {
    const newline = bytes.indexOf(0x0a, start);
    const end = newline === -1 ? bytes.length : newline;
    const node = scan(bytes, start, end);
    if (node) {
      const entry = JSON.parse(bytes.toString('utf8', start, end)) as SessionEntry;
      expect(node).toEqual(nodeOfEntry(entry));
      scanned++;
    }
    start = end + 1;
  }
  return scanned;
}

describe('indexing message lines without JSON.parse', () => {
  it('gives the same skeleton as a full parse on pi’s files', () => {
    const dir = tempDir();
    for (const name of ['v3-rpc-session.jsonl', 'v3-fork.jsonl', 'v1-large-session.jsonl']) {
      const file = copyFixture(name, dir);
      SessionStore.open(file).close(); // migrates the v1 file
      expect(expectScanEqualsParse(file)).toBeGreaterThan(0);
    }
  });

  it('gives the same skeleton as a full parse on random sessions', () => {
    const store = SessionStore.create({ cwd: '/w', sessionDir: tempDir() });
    randomSession(store, 11, 200);
    store.close();
    expect(expectScanEqualsParse(store.file!)).toBeGreaterThan(100);
  });

  it('gives the same skeleton where Node has no latin1Slice (Buffer#toString instead)', async () => {
    const store = SessionStore.create({ cwd: '/w', sessionDir: tempDir() });
    randomSession(store, 12, 80);
    store.close();
    const proto = Buffer.prototype as Buffer & { latin1Slice?: unknown };
    const latin1Slice = proto.latin1Slice;
    // The module decides when it loads; `toString` itself needs latin1Slice back afterwards.
    let fresh: { scanMessageLine: typeof scanMessageLine };
    try {
      delete proto.latin1Slice;
      vi.resetModules();
      fresh = await import('./fast-scan.js');
    } finally {
      proto.latin1Slice = latin1Slice;
      vi.resetModules();
    }
    expect(expectScanEqualsParse(store.file!, fresh.scanMessageLine)).toBeGreaterThan(50);
  });

  it('handles escapes, multi-byte characters, long texts and tool-only answers', () => {
    const store = SessionStore.create({ cwd: '/w', sessionDir: tempDir() });
    const texts = [
      'quote " backslash \\ tab \t newline \n unicode é ü 😀 \u2028 \u00a0 end',
      `${'😀'.repeat(120)}`,
      `${' \n\t'.repeat(300)}x${' '.repeat(500)}y`,
      `\\u0041 literal ${'long words '.repeat(50)}`,
      '',
    ];
    for (const text of texts) {
      store.appendMessage({ role: 'user', content: text, timestamp: 1 });
      store.appendMessage({
        role: 'user',
        content: [
          { type: 'text', text },
          { type: 'text', text },
        ],
        timestamp: 1,
      });
      store.appendMessage({
        role: 'assistant',
        content: text
          ? [
              { type: 'thinking', thinking: text },
              { type: 'text', text },
            ]
          : [{ type: 'toolCall', id: 'c', name: 'bash', arguments: { text: 'x' } }],
        api: 'a',
        provider: 'p',
        model: 'm',
        usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
        stopReason: text ? 'stop' : 'error',
        errorMessage: 'boom',
        timestamp: 1,
      });
      store.appendMessage({
        role: 'toolResult',
        toolCallId: 'c',
        toolName: 'bash',
        content: [
          { type: 'text', text },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        ],
        details: { isError: true },
        isError: false,
        timestamp: 1,
      });
      store.appendMessage({
        role: 'bashExecution',
        command: text,
        output: text,
        exitCode: 0,
        cancelled: false,
        truncated: false,
        timestamp: 1,
      });
    }
    store.appendMessage({ role: 'user', content: 'last', timestamp: 1 });
    store.close();
    expect(expectScanEqualsParse(store.file!)).toBeGreaterThan(15);
  });

  it('reads markers in place where pi writes them and searches for them elsewhere', () => {
    const store = SessionStore.create({ cwd: '/w', sessionDir: tempDir() });
    // Marker strings inside text (escaped there, so never structure), odd ids and names that
    // cannot be compared in place, and stop reasons and error flags far from the line's end.
    const marker = '{"type":"text","text":"x"} "stopReason":"error" "isError":true "name":"evil"';
    const ids = ['c1', 'c"quoted', 'ü-id', `c${'x'.repeat(70)}`];
    for (const id of ids) {
      store.appendMessage({
        role: 'user',
        content: [{ type: 'text', text: marker }],
        timestamp: 1,
      });
      store.appendMessage({
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: marker },
          { type: 'toolCall', id, name: 'r\u00e9ad "x"', arguments: { note: marker } },
          // Keys of the message's own inside arguments: structure, but not the message's.
          { type: 'toolCall', id: 'plain', name: 'bash', arguments: { stopReason: 'stop' } },
        ],
        api: 'a',
        provider: 'p',
        model: 'm',
        usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
        stopReason: 'error',
        // After the stop reason, and long: the stop reason is not near the line's end.
        errorMessage: `${marker} ${'e'.repeat(400)}`,
        timestamp: 1,
      });
      for (const toolName of ['bash', 'na"me', 'wr\\ite']) {
        store.appendMessage({
          role: 'toolResult',
          toolCallId: id,
          toolName,
          content: [
            { type: 'image', data: 'AAAA', mimeType: 'image/png' },
            { type: 'text', text: `${marker} ${'ö'.repeat(60)}` },
          ],
          details: { isError: true, note: 'n'.repeat(300) },
          isError: id === 'c1',
          timestamp: 1,
        });
      }
    }
    store.appendMessage({ role: 'user', content: 'last', timestamp: 1 });
    store.close();
    expect(expectScanEqualsParse(store.file!)).toBeGreaterThan(ids.length * 4);
  });

  it('refuses lines in another key order or cut short, leaving them to the parser', () => {
    const line = Buffer.from(
      '{"id":"aaaaaaaa","type":"message","parentId":null,"timestamp":"t","message":{"role":"user","content":"x","timestamp":1}}',
    );
    expect(scanMessageLine(line, 0, line.length)).toBeUndefined();
    const cut = Buffer.from(
      '{"type":"message","id":"aaaaaaaa","parentId":null,"timestamp":"t","message":{"role":"user","content":"x',
    );
    expect(scanMessageLine(cut, 0, cut.length)).toBeUndefined();
  });

  it('builds previews from JSON string bytes exactly as makePreview does', () => {
    const head =
      '{"type":"message","id":"aaaaaaaa","parentId":null,"timestamp":"t","message":{"role":"user","content":';
    for (const text of [
      '  a  b  ',
      'x'.repeat(100),
      'x'.repeat(101),
      `${'y '.repeat(60)}`,
      '\u3000lead',
    ]) {
      const line = Buffer.from(`${head}${JSON.stringify(text)},"timestamp":1}}`);
      expect(scanMessageLine(line, 0, line.length)?.preview).toBe(makePreview(text));
    }
  });

  it('copies runs of plain text 16 bytes at a time exactly as makePreview reads them', () => {
    // Spaces single, doubled, leading and trailing at every place of a 16-byte run, texts that
    // fill the preview to each length around its limit, and a run broken by an escape or é.
    const head =
      '{"type":"message","id":"aaaaaaaa","parentId":null,"timestamp":"t","message":{"role":"user","content":';
    const texts: string[] = [];
    for (let at = 0; at < 40; at++) {
      const word = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH'.repeat(3);
      texts.push(`${word.slice(0, at)} ${word.slice(at)}`);
      texts.push(`${word.slice(0, at)}  ${word.slice(at)}`);
      texts.push(`${' '.repeat(at % 3)}${word.slice(0, at)} x${' '.repeat(at % 4)}`);
      texts.push(`${word.slice(0, at)}\n${word.slice(at)}`);
      texts.push(`${word.slice(0, at)}é${word.slice(at)}`);
      texts.push(`${'w '.repeat(at)}${'z'.repeat(100)}`);
    }
    for (let n = 60; n <= 100; n++)
      texts.push('q'.repeat(n), `${'r'.repeat(n - 20)} ${'s'.repeat(19)}`);
    for (const text of texts) {
      const line = Buffer.from(`${head}${JSON.stringify(text)},"timestamp":1}}`);
      expect(scanMessageLine(line, 0, line.length)?.preview, JSON.stringify(text)).toBe(
        makePreview(text),
      );
    }
  });
});

describe('hostile lines in the WebAssembly scan', () => {
  it('never fails on cut or altered message lines, and agrees with the parse on those it reads', () => {
    const store = SessionStore.create({ cwd: '/w', sessionDir: tempDir() });
    randomSession(store, 5, 40);
    store.close();
    const lines = fs.readFileSync(store.file!).toString('utf8').trim().split('\n').slice(1);
    let agreed = 0;
    for (const text of lines) {
      const line = Buffer.from(text);
      for (let cut = 1; cut < line.length; cut += 7) {
        for (const variant of [
          line,
          line.subarray(0, cut),
          Buffer.concat([
            line.subarray(0, cut),
            Buffer.from('"\\\u00ff\u{1f600}'),
            line.subarray(cut),
          ]),
        ]) {
          const node = scanMessageLine(variant, 0, variant.length);
          let entry: SessionEntry | undefined;
          try {
            entry = JSON.parse(variant.toString('utf8')) as SessionEntry;
          } catch {
            entry = undefined;
          }
          if (node && entry) {
            expect(node).toEqual(nodeOfEntry(entry));
            agreed++;
          }
        }
      }
    }
    expect(agreed).toBeGreaterThan(0);
  });
});
