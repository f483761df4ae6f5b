import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionStore } from './session-store.js';
import { expectSameAsPi16 } from './test-support/pi16-compare.js';
import { readWithPi16 } from './test-support/pi16-oracle.js';
import { useTempDirs } from './test-support/temp-dir.js';

/*
 * Lines pi 1.6's own writers never produce but its reader takes as they are (hand-edited files,
 * older pi versions, other tools): Arbor reads them as pi 1.6 does, at every entry, and counts
 * none of them unreadable.
 */

const tempDir = useTempDirs();
const TIME = '2026-03-04T05:06:07.000Z';
let tick = 0;
const at = () => new Date(Date.parse(TIME) + ++tick * 1000).toISOString();

function entry(type: string, id: string, parentId: string | null, body: object): object {
  return { type, id, parentId, timestamp: at(), ...body };
}
const message = (id: string, parentId: string | null, msg: object) =>
  entry('message', id, parentId, { message: msg });
const usage = { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 3 };
const assistantBody = (content: unknown, stopReason: string) => ({
  role: 'assistant',
  content,
  api: 'openai-completions',
  provider: 'arbor',
  model: 'arbor-demo',
  usage,
  stopReason,
  timestamp: 2,
});
const system = (content: unknown, extra: object = {}) => ({
  role: 'system',
  content,
  timestamp: 1,
  ...extra,
});

function writeSession(dir: string, name: string, entries: object[], version = 3): string {
  const file = path.join(dir, name);
  const header = { type: 'session', version, id: `lenient-${name}`, timestamp: TIME, cwd: dir };
  fs.writeFileSync(file, [header, ...entries].map((e) => JSON.stringify(e)).join('\n') + '\n');
  return file;
}

describe('lenient reading, as pi 1.6', () => {
  it('reads bodies without display, timestamp, isError or content, and unknown stop reasons', async () => {
    const file = writeSession(tempDir(), 'bodies.jsonl', [
      entry('model_change', 'm1', null, { provider: 'arbor', modelId: 'arbor-demo' }),
      message('s1', 'm1', system(null, { sections: { a: '<a/>' } })),
      message('u1', 's1', { role: 'user', content: 'no timestamp' }),
      message('a1', 'u1', assistantBody(null, 'pending')),
      message('a2', 'a1', assistantBody([{ type: 'text', text: 'odd stop' }], 'content_filter')),
      message('t1', 'a2', {
        role: 'toolResult',
        toolCallId: 'c',
        toolName: 'read',
        content: null,
        timestamp: 3,
      }),
      message('t2', 't1', {
        role: 'toolResult',
        toolCallId: 'c',
        toolName: 'read',
        content: [{ type: 'text', text: 'no isError' }],
        timestamp: 3,
      }),
      entry('custom_message', 'cm1', 't2', { customType: 'ext', content: 'no display' }),
      entry('custom_message', 'cm2', 'cm1', { customType: 'ext', content: null, display: true }),
      message('u2', 'cm2', { role: 'user', content: null, timestamp: 4 }),
      entry('thinking_level_change', 'k1', 'u2', { thinkingLevel: 'max' }),
      entry('usage', 'g1', 'k1', {
        kind: 'brand_new',
        provider: 'arbor',
        model: 'arbor-demo',
        usage,
      }),
      entry('custom', 'v1', 'g1', { customType: 'pi.virtual-model-state', data: { any: 1 } }),
    ]);
    const { pi } = await expectSameAsPi16(file);
    expect(pi.context.thinkingLevel).toBe('max');
    expect(pi.context.messages).toHaveLength(9);
  });

  it('applies context edits as pi 1.6: latest per target, on the path only, compaction-relative', async () => {
    const file = writeSession(tempDir(), 'edits.jsonl', [
      message('s1', null, system('base', { toolsAdded: [{ name: 'read' }] })),
      message('u1', 's1', { role: 'user', content: 'one', timestamp: 1 }),
      message('a1', 'u1', assistantBody([{ type: 'text', text: 'answer one' }], 'stop')),
      // An edit of a later entry counts too (pi collects the edits first).
      entry('context_edit', 'e0', 'a1', {
        targetId: 'u2',
        replacement: { content: 'two, early edit' },
      }),
      message('u2', 'e0', { role: 'user', content: 'two', timestamp: 2 }),
      entry('compaction', 'c1', 'u2', {
        summary: 'old summary',
        firstKeptEntryId: 'u1',
        tokensBefore: 10,
      }),
      entry('context_edit', 'e1', 'c1', { targetId: 'c1', replacement: null }),
      entry('branch_summary', 'b1', 'e1', { fromId: 'x', summary: '' }),
      message(
        's2',
        'b1',
        system('patch', { sections: { a: null }, toolsRemoved: [{ name: 'read' }] }),
      ),
      message('u3', 's2', { role: 'user', content: 'three', timestamp: 3 }),
      entry('context_edit', 'e2', 'u3', {
        targetId: 'a1',
        replacement: { content: 'answer one, edited' },
      }),
      entry('context_edit', 'e3', 'e2', {
        targetId: 'a1',
        replacement: { content: [{ type: 'text', text: 'latest' }] },
      }),
      entry('compaction', 'c2', 'e3', {
        summary: 'new summary',
        firstKeptEntryId: 'u2',
        tokensBefore: 20,
        systemMessage: system('checkpoint', { toolsAdded: [{ name: 'grep' }] }),
      }),
      entry('context_edit', 'e4', 'c2', {
        targetId: 'c2',
        replacement: { content: 'ignored by roles' },
      }),
      message('u4', 'e4', { role: 'user', content: 'four', timestamp: 4 }),
      entry('compaction', 'c3', 'u4', {
        summary: 'keeps none',
        firstKeptEntryId: 'c3',
        tokensBefore: 5,
      }),
      entry('context_edit', 'e5', 'c3', { targetId: 'c3', replacement: null }),
      message('u5', 'e5', { role: 'user', content: 'five', timestamp: 5 }),
      // Another branch: edits made there do not reach the first branch, and back.
      message('x1', 'u3', { role: 'user', content: 'side', timestamp: 6 }),
      entry('context_edit', 'x2', 'x1', { targetId: 'u1', replacement: null }),
      entry('context_edit', 'x3', 'x2', { targetId: 'u4', replacement: { content: 'not here' } }),
    ]);
    await expectSameAsPi16(file);
  });
});

/** Message contexts without what migration makes up (random ids), for files pi rewrites. */
function withoutIds(context: unknown): unknown {
  return JSON.parse(JSON.stringify(context), (key, value: unknown) =>
    key === 'fromId' ? '(id)' : value,
  );
}

describe('old files, as pi 1.6 migrates them', () => {
  const v1 = (firstKeptEntryIndex: number) => [
    { type: 'message', timestamp: at(), message: { role: 'user', content: 'one', timestamp: 1 } },
    {
      type: 'message',
      timestamp: at(),
      message: assistantBody([{ type: 'text', text: 'a' }], 'stop'),
    },
    {
      type: 'compaction',
      timestamp: at(),
      summary: 'summary',
      firstKeptEntryIndex,
      tokensBefore: 9,
    },
    { type: 'message', timestamp: at(), message: { role: 'user', content: 'two', timestamp: 2 } },
  ];

  it.each([
    ['the header', 0],
    ['past the end', 99],
    ['an entry', 1],
  ])('a v1 compaction whose firstKeptEntryIndex points at %s', async (_label, index) => {
    const dir = tempDir();
    const file = writeSession(dir, `v1-${index}.jsonl`, v1(index), 1);
    // pi migrates a copy; Arbor reads the original without writing to it.
    const pi = await readWithPi16(file);
    const before = fs.readFileSync(file);
    const store = SessionStore.openReadOnly(file);
    try {
      expect(withoutIds(store.buildSessionContext())).toEqual(withoutIds(pi.context));
      expect(store.openReport.badLines).toEqual([]);
    } finally {
      store.close();
    }
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    expect(pi.context.messages.map((m: { role: string }) => m.role)).toEqual(
      index === 1
        ? ['compactionSummary', 'user', 'assistant', 'user']
        : ['compactionSummary', 'user'],
    );
  });
});

it("repairs a v2 file's trailing entries without ids into the chain, without writing", async () => {
  const dir = tempDir();
  const file = writeSession(
    dir,
    'v2-no-ids.jsonl',
    [
      message('u1', null, { role: 'user', content: 'one', timestamp: 1 }),
      message('a1', 'u1', assistantBody([{ type: 'text', text: 'answer' }], 'stop')),
      { type: 'message', timestamp: at(), message: { role: 'user', content: 'two', timestamp: 2 } },
      {
        type: 'message',
        timestamp: at(),
        message: { role: 'user', content: 'three', timestamp: 3 },
      },
    ],
    2,
  );
  const before = fs.readFileSync(file);
  const pi = await readWithPi16(file);
  const store = SessionStore.openReadOnly(file);
  try {
    const context = store.buildSessionContext();
    expect(context.messages.map((m) => ('content' in m ? m.content : ''))).toEqual([
      'one',
      [{ type: 'text', text: 'answer' }],
      'two',
      'three',
    ]);
    expect(store.openReport.badLines).toEqual([]);
    expect(store.getTree()).toHaveLength(4);
    // pi 1.6 keeps them under an undefined id and sends the last one alone: Arbor loses nothing.
    expect(pi.context.messages).toEqual([context.messages.at(-1)]);
  } finally {
    store.close();
  }
  expect(fs.readFileSync(file).equals(before)).toBe(true);
});
