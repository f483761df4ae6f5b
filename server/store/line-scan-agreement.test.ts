import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scanMessageLine } from './fast-scan.js';
import { nodeOfEntry } from './tree-node.js';
import { SessionStore } from './session-store.js';
import { randomSession } from '../test-support/random-session.js';
import { useTempDirs } from './test-support/temp-dir.js';
import { prng } from '../../shared/prng.js';
import type { SessionEntry, TreeNode } from '../../shared/session-entries.js';

/*
 * The WebAssembly line scan against JSON.parse on lines a hostile file could hold: duplicate
 * keys (JSON.parse keeps the last), keys of the message at other depths, blocks nested in tool
 * arguments, escaped keys, white space, invalid JSON and invalid UTF-8. Every line the scan reads
 * must give the node the parse gives; a line the parse refuses must be refused.
 */

const tempDir = useTempDirs();

type Json = string | number | boolean | null | Json[] | Pairs;
/** An object as its members in order, so a key may occur twice. */
class Pairs {
  constructor(readonly members: [string, Json][]) {}
}

function toPairs(value: unknown): Json {
  if (Array.isArray(value)) return value.map(toPairs);
  if (value !== null && typeof value === 'object') {
    return new Pairs(Object.entries(value).map(([key, inner]) => [key, toPairs(inner)]));
  }
  return value as Json;
}

interface Style {
  /** Keys written with an escape (`"\u0063ontent"`), which JSON.parse reads as the plain key. */
  escapedKey?: string;
  /** A space after the colon of this key. */
  spacedKey?: string;
}

function escapeKey(key: string): string {
  return `"\\u${key.charCodeAt(0).toString(16).padStart(4, '0')}${JSON.stringify(key).slice(2)}`;
}

function write(value: Json, style: Style): string {
  if (value instanceof Pairs) {
    const members = value.members.map(([key, inner]) => {
      const name = key === style.escapedKey ? escapeKey(key) : JSON.stringify(key);
      const colon = key === style.spacedKey ? ': ' : ':';
      return `${name}${colon}${write(inner, style)}`;
    });
    return `{${members.join(',')}}`;
  }
  if (Array.isArray(value)) return `[${value.map((inner) => write(inner, style)).join(',')}]`;
  return JSON.stringify(value);
}

function objectsOf(value: Json, into: Pairs[] = []): Pairs[] {
  if (value instanceof Pairs) {
    into.push(value);
    for (const [, inner] of value.members) objectsOf(inner, into);
  } else if (Array.isArray(value)) {
    for (const inner of value) objectsOf(inner, into);
  }
  return into;
}

/** Values a member the node reads may hold, good and bad. */
const VALUES: Json[] = [
  'evil',
  '',
  '  ',
  'error',
  'stop',
  'user',
  'toolCall',
  'text',
  true,
  false,
  null,
  7,
  [],
  new Pairs([]),
  [
    new Pairs([
      ['type', 'text'],
      ['text', 'nested text'],
    ]),
  ],
  new Pairs([
    ['type', 'toolCall'],
    ['id', 'n1'],
    ['name', 'nested'],
    ['arguments', new Pairs([])],
  ]),
];
/** Keys the node reads somewhere, at one level or another. */
const KEYS = [
  'type',
  'id',
  'parentId',
  'timestamp',
  'message',
  'role',
  'content',
  'text',
  'name',
  'stopReason',
  'errorMessage',
  'toolName',
  'isError',
  'command',
];

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)]!;
}

/** One altered copy of `line`, as text. */
function mutate(line: SessionEntry, next: () => number): string {
  const root = toPairs(line);
  const objects = objectsOf(root);
  const style: Style = {};
  const changes = 1 + Math.floor(next() * 3);
  for (let k = 0; k < changes; k++) {
    const target = pick(next, objects);
    const kind = Math.floor(next() * 6);
    if (kind === 0 && target.members.length > 0) {
      // The same key again, with another value or the same.
      const [key, value] = pick(next, target.members);
      target.members.push([key, next() < 0.3 ? value : pick(next, VALUES)]);
    } else if (kind === 1) {
      target.members.push([pick(next, KEYS), pick(next, VALUES)]);
    } else if (kind === 2 && target.members.length > 1) {
      target.members.push(target.members.splice(Math.floor(next() * target.members.length), 1)[0]!);
    } else if (kind === 3 && target.members.length > 0) {
      target.members.splice(Math.floor(next() * target.members.length), 1);
    } else if (kind === 4) {
      style.escapedKey = pick(next, KEYS);
    } else {
      style.spacedKey = pick(next, KEYS);
    }
  }
  return write(root, style);
}

/** What JSON.parse and nodeOfEntry make of `bytes`, or undefined where either refuses. */
function parsedNode(bytes: Buffer): TreeNode | undefined {
  try {
    return nodeOfEntry(JSON.parse(bytes.toString('utf8')) as SessionEntry);
  } catch {
    return undefined;
  }
}

function messageLines(): SessionEntry[] {
  const store = SessionStore.create({ cwd: '/w', sessionDir: tempDir() });
  randomSession(store, 21, 60);
  store.close();
  return fs
    .readFileSync(store.file!, 'utf8')
    .trim()
    .split('\n')
    .map((text) => JSON.parse(text) as SessionEntry)
    .filter((entry) => entry.type === 'message');
}

describe('the line scan agrees with JSON.parse', () => {
  it('on altered message lines: read as the parse reads them, or left to it', () => {
    const lines = messageLines();
    const next = prng(26);
    let read = 0;
    for (let round = 0; round < 20; round++) {
      for (const line of lines) {
        const bytes = Buffer.from(mutate(line, next));
        const node = scanMessageLine(bytes, 0, bytes.length);
        if (!node) continue;
        const expected = parsedNode(bytes);
        expect(expected, bytes.toString()).toBeDefined();
        expect(node, bytes.toString()).toEqual(expected);
        read++;
      }
    }
    // The scan still reads many of them (moved keys, keys it does not need, white space elsewhere).
    expect(read).toBeGreaterThan(lines.length * 5);
  });

  it('takes the last of a duplicated key, as JSON.parse does, or leaves the line to it', () => {
    const head = '{"type":"message","id":"a1","parentId":null,"timestamp":"t"';
    const cases = [
      `${head},"message":{"role":"user","content":"first","content":"second"}}`,
      `${head},"message":{"role":"user","content":"x"},"id":"b2"}`,
      `${head},"message":{"role":"user","content":"x"},"parentId":"a1"}`,
      `${head},"message":{"role":"user","content":"x"},"message":{"role":"user","content":"y"}}`,
      `${head},"message":{"role":"user","content":[{"type":"text","text":"a","text":"b"}]}}`,
      `${head},"message":{"role":"toolResult","toolName":"a","toolName":"b","content":[],"isError":false}}`,
      `${head},"message":{"role":"toolResult","toolName":"a","content":[],"isError":false,"isError":true}}`,
      `${head},"message":{"role":"assistant","content":[],"stopReason":"stop","stopReason":"error"}}`,
      `${head},"message":{"role":"bashExecution","command":"ls","command":"rm -rf /"}}`,
      `${head},"message":{"role":"user","con\\u0074ent":"hidden","content":"x"}}`,
    ];
    for (const text of cases) {
      const bytes = Buffer.from(text);
      const node = scanMessageLine(bytes, 0, bytes.length);
      if (node) expect(node, text).toEqual(parsedNode(bytes));
    }
  });

  it('reads keys only at their own depth', () => {
    const head = '{"type":"message","id":"a1","parentId":null,"timestamp":"t"';
    const line = Buffer.from(
      `${head},"message":{"role":"assistant","content":[` +
        '{"type":"toolCall","id":"c1","arguments":{"name":"inner","x":{"type":"toolCall","name":"deep"},' +
        '"blocks":[{"type":"text","text":"not this"}],"stopReason":"error"},"name":"outer"}],' +
        '"usage":{"stopReason":"aborted","errorMessage":"no"},"stopReason":"toolUse"}}',
    );
    const node = scanMessageLine(line, 0, line.length);
    expect(node).toBeDefined();
    expect(node).toEqual(parsedNode(line));
    expect(node).toMatchObject({ preview: '→ outer', toolCalls: 1 });
    expect(node?.isError).toBeUndefined();
  });

  it('refuses what JSON.parse refuses, and previews with invalid UTF-8', () => {
    const head = '{"type":"message","id":"a1","parentId":null,"timestamp":"t"';
    const bad = [
      `${head},"message":{"role":"user","content":"x","n":01}}`,
      `${head},"message":{"role":"user","content":"x","n":1.}}`,
      `${head},"message":{"role":"user","content":"x","n":tru}}`,
      `${head},"message":{"role":"user","content":"x","s":"\\q"}}`,
      `${head},"message":{"role":"user","content":"x",}}`,
      `${head},"message":{"role":"user","content":"x"}}}`,
      `${head},"message":{"role":"user","content":"x"},}`,
      `${head},"message":{"role":"user","content":"tab\there"}}`,
    ];
    for (const text of bad) {
      const bytes = Buffer.from(text);
      expect(parsedNode(bytes), text).toBeUndefined();
      expect(scanMessageLine(bytes, 0, bytes.length), text).toBeUndefined();
    }
    for (const invalid of [[0xff], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xe2, 0x82]]) {
      const bytes = Buffer.concat([
        Buffer.from(`${head},"message":{"role":"user","content":"a`),
        Buffer.from(invalid),
        Buffer.from('b"}}'),
      ]);
      // The decoder makes U+FFFD of them; the scan leaves such a preview to it.
      expect(parsedNode(bytes)?.preview).toContain('\ufffd');
      expect(scanMessageLine(bytes, 0, bytes.length)).toBeUndefined();
    }
  });
});
