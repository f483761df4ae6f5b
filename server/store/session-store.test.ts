import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionChangeEvent } from '../../shared/agent-events.js';
import { SessionStore } from './session-store.js';
import { PREVIEW_LENGTH } from './tree-node.js';
import { sessionDirFor, sessionFileName } from './session-paths.js';
import { uuidv7 } from './entry-ids.js';
import { useTempDirs } from './test-support/temp-dir.js';
import {
  assistantMessage,
  bashMessage,
  customMessage,
  toolResultMessage,
  userMessage,
} from '../test-support/messages.js';

const tempDir = useTempDirs();

function readLines(file: string): Record<string, unknown>[] {
  return fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('paths and ids', () => {
  it('lays out session dirs as pi does', () => {
    expect(sessionDirFor('/data', '/home/dev/project')).toBe('/data/sessions/--home-dev-project--');
    expect(sessionDirFor('/data', 'C:\\work\\x')).toBe('/data/sessions/--C--work-x--');
  });

  it('names files after the header timestamp and the session id', () => {
    expect(sessionFileName('2026-11-30T17:58:39.572Z', 'abc')).toBe(
      '2026-11-30T17-58-39-572Z_abc.jsonl',
    );
  });

  it('makes version 7 session ids that sort by time', () => {
    const a = uuidv7(1_000_000);
    const b = uuidv7(2_000_000);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a < b).toBe(true);
  });
});

describe('creating and appending', () => {
  it('writes the header at once, in the directory given, named as pi names files', () => {
    const dir = path.join(tempDir(), 'sessions', '--w--');
    const store = SessionStore.create({ cwd: '/w', sessionDir: dir });
    expect(store.file).toBeDefined();
    const file = store.file!;
    expect(path.dirname(file)).toBe(dir);
    expect(path.basename(file)).toBe(sessionFileName(store.header.timestamp, store.sessionId));
    const [header] = readLines(file);
    expect(header).toEqual({
      type: 'session',
      version: 3,
      id: store.sessionId,
      timestamp: store.header.timestamp,
      cwd: '/w',
    });
    store.close();
  });

  it('chains every append to the leaf with 8-hex ids and ISO timestamps', () => {
    const store = SessionStore.create({ cwd: '/w', sessionDir: tempDir() });
    const a = store.appendModelChange('demo', 'demo-model');
    const b = store.appendThinkingLevelChange('high');
    const c = store.appendMessage(userMessage('hello'));
    const d = store.appendMessage(assistantMessage('hi'));
    const lines = readLines(store.file!).slice(1);
    expect(lines.map((l) => l.id)).toEqual([a, b, c, d]);
    expect(lines.map((l) => l.parentId)).toEqual([null, a, b, c]);
    for (const line of lines) {
      expect(line.id).toMatch(/^[0-9a-f]{8}$/);
      expect(new Date(line.timestamp as string).toISOString()).toBe(line.timestamp);
      expect(Object.keys(line).slice(0, 4)).toEqual(['type', 'id', 'parentId', 'timestamp']);
    }
    expect(store.getLeafId()).toBe(d);
    store.close();
  });

  it('writes custom and custom_message entries with their payload first, as pi does', () => {
    const store = SessionStore.create({ cwd: '/w', sessionDir: tempDir() });
    store.appendCustomEntry('ext', { n: 1 });
    store.appendCustomMessageEntry('note', 'text', false, { k: 1 });
    const [custom, customMsg] = readLines(store.file!).slice(1);
    expect(Object.keys(custom!)).toEqual([
      'type',
      'customType',
      'data',
      'id',
      'parentId',
      'timestamp',
    ]);
    expect(Object.keys(customMsg!).slice(0, 5)).toEqual([
      'type',
      'customType',
      'content',
      'display',
      'details',
    ]);
    store.close();
  });

  it('stores a custom-role message as a custom_message entry', () => {
    const store = SessionStore.inMemory('/w');
    const id = store.appendMessage(customMessage('injected'));
    const entry = store.getEntry(id);
    expect(entry?.type).toBe('custom_message');
    expect(store.buildSessionContext().messages[0]).toMatchObject({
      role: 'custom',
      customType: 'note',
      content: 'injected',
      display: true,
    });
  });

  it('refuses summary roles and invalid messages with a clear error', () => {
    const store = SessionStore.inMemory('/w');
    expect(() =>
      store.appendMessage({ role: 'branchSummary', summary: 's', fromId: 'x', timestamp: 1 }),
    ).toThrow(/branchWithSummary/);
    expect(() => store.appendMessage({ role: 'user' } as never)).toThrow(/Invalid message/);
    expect(store.getTree()).toEqual([]);
  });

  it('omits undefined optional fields from the written line', () => {
    const store = SessionStore.create({ cwd: '/w', sessionDir: tempDir() });
    const first = store.appendMessage(userMessage('q'));
    store.appendCompaction('sum', first, 10);
    store.appendLabelChange(first, 'x');
    store.appendLabelChange(first, undefined);
    const [, compaction, , cleared] = readLines(store.file!).slice(1);
    expect(compaction).not.toHaveProperty('details');
    expect(compaction).not.toHaveProperty('fromHook');
    expect(cleared).not.toHaveProperty('label');
    store.close();
  });
});

describe('reading the tree', () => {
  function sample(): { store: SessionStore; ids: Record<string, string> } {
    const store = SessionStore.inMemory('/w');
    const u1 = store.appendMessage(userMessage('first question'));
    const a1 = store.appendMessage(
      assistantMessage('', {
        toolCalls: [
          { id: 'c1', name: 'bash' },
          { id: 'c2', name: 'read' },
        ],
      }),
    );
    const t1 = store.appendMessage(toolResultMessage('c1', 'output'));
    store.branch(u1);
    const a2 = store.appendMessage(assistantMessage('other answer', { stopReason: 'error' }));
    return { store, ids: { u1, a1, t1, a2 } };
  }

  it('gives a skeleton with role, preview, tool call count and error flag', () => {
    const { store, ids } = sample();
    expect(store.getNode(ids.a1!)).toMatchObject({
      type: 'message',
      role: 'assistant',
      toolCalls: 2,
      preview: '→ bash → read',
    });
    expect(store.getNode(ids.a2!)).toMatchObject({ isError: true, preview: 'other answer' });
    expect(store.getNode(ids.t1!)?.preview).toBe('bash: output');
    expect(store.getTree().map((n) => n.id)).toEqual([ids.u1, ids.a1, ids.t1, ids.a2]);
  });

  it('cuts previews to PREVIEW_LENGTH characters with whitespace collapsed', () => {
    const store = SessionStore.inMemory('/w');
    const id = store.appendMessage(userMessage(`a\n\n  b ${'x'.repeat(300)}`));
    const preview = store.getNode(id)!.preview;
    expect(preview.length).toBe(PREVIEW_LENGTH);
    expect(preview.endsWith('\u2026')).toBe(true);
    expect(preview.startsWith('a b xxx')).toBe(true);
  });

  it('orders children by timestamp and walks branches root first', () => {
    const { store, ids } = sample();
    expect(store.getChildren(ids.u1!).map((n) => n.id)).toEqual([ids.a1, ids.a2]);
    expect(store.getChildren(null).map((n) => n.id)).toEqual([ids.u1]);
    expect(store.getBranch().map((e) => e.id)).toEqual([ids.u1, ids.a2]);
    expect(store.getBranch(ids.t1!).map((e) => e.id)).toEqual([ids.u1, ids.a1, ids.t1]);
    expect(store.getBranch(null)).toEqual([]);
  });

  it('resolves labels with the last change winning and a clear removing the label', () => {
    const { store, ids } = sample();
    store.appendLabelChange(ids.u1!, 'one');
    store.appendLabelChange(ids.u1!, 'two');
    expect(store.getLabel(ids.u1!)).toBe('two');
    expect(store.getNode(ids.u1!)?.label).toBe('two');
    store.appendLabelChange(ids.u1!, undefined);
    expect(store.getLabel(ids.u1!)).toBeUndefined();
    expect(store.getNode(ids.u1!)).not.toHaveProperty('label');
    expect(() => store.appendLabelChange('nope', 'x')).toThrow(/No entry nope/);
  });

  it('trims a label, clears it when blank, and refuses an unknown target with entry_not_found', () => {
    const store = SessionStore.inMemory('/w');
    const id = store.appendMessage(userMessage('q'));
    store.appendLabelChange(id, '  kept  ');
    expect(store.getLabel(id)).toBe('kept');
    store.appendLabelChange(id, ' \t ');
    expect(store.getLabel(id)).toBeUndefined();
    expect(() => store.appendLabelChange('nope', 'x')).toThrow(
      expect.objectContaining({
        code: 'entry_not_found',
        message: 'No entry nope in this session.',
      }),
    );
  });

  it('writes a name as pi 1.6 does and refuses one that is left empty', () => {
    const store = SessionStore.inMemory('/w');
    store.appendSessionInfo(' two\r\nlines ');
    expect(store.getSessionName()).toBe('two lines');
    for (const blank of ['', '  ', '\n\r\n ']) {
      expect(() => store.appendSessionInfo(blank)).toThrow(
        expect.objectContaining({
          code: 'invalid_request',
          message: 'A session name cannot be empty.',
        }),
      );
    }
    expect(store.getSessionName()).toBe('two lines');
  });

  it('names the session after the last session_info anywhere in the file', () => {
    const store = SessionStore.create({ cwd: '/w', sessionDir: tempDir() });
    const root = store.appendMessage(userMessage('q'));
    store.appendSessionInfo('  First  ');
    store.branch(root);
    store.appendSessionInfo('Second');
    store.branch(root);
    expect(store.getSessionName()).toBe('Second');
    const file = store.file!;
    store.close();
    const reopened = SessionStore.open(file);
    expect(reopened.getSessionName()).toBe('Second');
    // An empty session_info (pi writes one to clear a name) leaves the session unnamed.
    const leaf = reopened.getLeafId();
    reopened.close();
    const clear = {
      type: 'session_info',
      id: 'c1ea0000',
      parentId: leaf,
      timestamp: new Date().toISOString(),
      name: '',
    };
    fs.appendFileSync(file, `${JSON.stringify(clear)}\n`);
    const cleared = SessionStore.open(file);
    expect(cleared.getSessionName()).toBeUndefined();
    cleared.close();
  });
});

describe('moving the leaf', () => {
  it('branchWithSummary attaches to the new parent and records the leaf left as fromId (pi 1.6)', () => {
    const store = SessionStore.inMemory('/w');
    const u = store.appendMessage(userMessage('q'));
    const a = store.appendMessage(assistantMessage('a'));
    const s = store.branchWithSummary(u, 'what happened', { readFiles: [] }, false);
    expect(store.getEntry(s)).toMatchObject({ type: 'branch_summary', parentId: u, fromId: a });
    expect(store.getLeafId()).toBe(s);
    const root = store.branchWithSummary(null, 'from root');
    expect(store.getEntry(root)).toMatchObject({ parentId: null, fromId: s });
    store.resetLeaf();
    const fromNothing = store.branchWithSummary(u, 'from an empty leaf');
    expect(store.getEntry(fromNothing)).toMatchObject({ parentId: u, fromId: 'root' });
    expect(() => store.branchWithSummary('missing', 'x')).toThrow(/not found/);
  });

  it('resetLeaf makes the next append a new root', () => {
    const store = SessionStore.inMemory('/w');
    store.appendMessage(userMessage('q'));
    store.resetLeaf();
    expect(store.getLeafId()).toBeNull();
    expect(store.buildSessionContext().messages).toEqual([]);
    const second = store.appendMessage(userMessage('again'));
    expect(store.getEntry(second)?.parentId).toBeNull();
    expect(store.getChildren(null)).toHaveLength(2);
  });

  it('branch refuses an unknown id and leaves the leaf alone', () => {
    const store = SessionStore.inMemory('/w');
    const u = store.appendMessage(userMessage('q'));
    expect(() => store.branch('deadbeef')).toThrow(/not found/);
    expect(store.getLeafId()).toBe(u);
  });

  it('tells listeners about appends, labels, names and leaf moves in order', () => {
    const store = SessionStore.inMemory('/w');
    const seen: SessionChangeEvent[] = [];
    const off = store.onChange((change) => seen.push(change));
    const u = store.appendMessage(userMessage('q'));
    store.appendLabelChange(u, 'L');
    store.appendSessionInfo('N');
    store.branch(u);
    store.resetLeaf();
    off();
    store.appendMessage(userMessage('unheard'));
    expect(seen.map((c) => c.type)).toEqual([
      'entry_appended',
      'entry_appended',
      'label_changed',
      'entry_appended',
      'session_info_changed',
      'leaf_moved',
      'leaf_moved',
    ]);
    expect(seen[0]).toMatchObject({ type: 'entry_appended', node: { id: u, role: 'user' } });
    expect(seen[2]).toEqual({ type: 'label_changed', targetId: u, label: 'L' });
    expect(seen[5]).toEqual({ type: 'leaf_moved', leafId: u });
    expect(seen[6]).toEqual({ type: 'leaf_moved', leafId: null });
  });
});

describe('context', () => {
  it('restores model and thinking level from the path; the last compaction wins', () => {
    const store = SessionStore.inMemory('/w');
    store.appendModelChange('p1', 'm1');
    store.appendThinkingLevelChange('high');
    const u1 = store.appendMessage(userMessage('one'));
    store.appendMessage(assistantMessage('a1', { provider: 'p2', model: 'm2' }));
    const u2 = store.appendMessage(userMessage('two'));
    store.appendMessage(bashMessage('ls', 'x'));
    store.appendCompaction('summary one', u1, 100);
    store.appendCompaction('summary two', u2, 200);
    store.appendMessage(userMessage('three'));
    const context = store.buildSessionContext();
    expect(context.model).toEqual({ provider: 'p2', modelId: 'm2' });
    expect(context.thinkingLevel).toBe('high');
    expect(context.messages.map((m) => m.role)).toEqual([
      'compactionSummary',
      'user',
      'bashExecution',
      'user',
    ]);
    expect(context.messages[0]).toMatchObject({ summary: 'summary two', tokensBefore: 200 });
  });

  it('drops an empty branch summary and keeps a non-empty one', () => {
    const store = SessionStore.inMemory('/w');
    const u = store.appendMessage(userMessage('q'));
    store.branchWithSummary(u, '');
    expect(store.buildSessionContext().messages.map((m) => m.role)).toEqual(['user']);
    store.branchWithSummary(u, 'text');
    expect(store.buildSessionContext().messages.map((m) => m.role)).toEqual([
      'user',
      'branchSummary',
    ]);
  });

  it('falls back to the last entry for an unknown leaf, as pi does', () => {
    const store = SessionStore.inMemory('/w');
    store.appendMessage(userMessage('q'));
    const a = store.appendMessage(assistantMessage('a'));
    expect(store.buildSessionContext('unknown')).toEqual(store.buildSessionContext(a));
    expect(store.buildSessionContext(null).messages).toEqual([]);
  });
});

describe('opening', () => {
  it('continues the most recently modified session, or creates one', () => {
    const dir = tempDir();
    const first = SessionStore.continueRecent('/w', dir);
    first.appendMessage(userMessage('one'));
    const firstFile = first.file!;
    first.close();
    const second = SessionStore.create({ cwd: '/w', sessionDir: dir });
    const secondFile = second.file!;
    second.close();
    const past = new Date(Date.now() - 60_000);
    fs.utimesSync(secondFile, past, past);
    fs.writeFileSync(path.join(dir, 'notes.jsonl'), 'not a session\n');
    const again = SessionStore.continueRecent('/w', dir);
    expect(again.file).toBe(firstFile);
    expect(again.getTree()).toHaveLength(1);
    again.close();
  });

  it('refuses a missing file rather than creating one at a guessed path', () => {
    expect(() => SessionStore.open(path.join(tempDir(), 'nope.jsonl'))).toThrow(
      /No such session file/,
    );
  });

  it('gives an empty file a header, since nothing can be lost', () => {
    const file = path.join(tempDir(), 'empty.jsonl');
    fs.writeFileSync(file, '');
    const store = SessionStore.open(file);
    expect(readLines(file)[0]).toMatchObject({ type: 'session', version: 3 });
    store.close();
  });

  it('keeps unknown keys of every line through open and append', () => {
    const dir = tempDir();
    const file = path.join(dir, 's.jsonl');
    const header =
      '{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w","extra":{"a":1}}';
    const entry =
      '{"type":"message","id":"aaaaaaaa","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1,"future":true},"flag":"x"}';
    fs.writeFileSync(file, `${header}\n${entry}\n`);
    const store = SessionStore.open(file);
    expect(store.header).toMatchObject({ extra: { a: 1 } });
    expect(store.getEntry('aaaaaaaa')).toMatchObject({ flag: 'x', message: { future: true } });
    store.appendMessage(userMessage('more'));
    store.close();
    const text = fs.readFileSync(file, 'utf8').split('\n');
    expect(text[0]).toBe(header);
    expect(text[1]).toBe(entry);
  });

  it('reports an unknown entry type, keeps it in the tree and leaves the file as it is', () => {
    const file = path.join(tempDir(), 's.jsonl');
    const lines = [
      '{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}',
      '{"type":"message","id":"aaaaaaaa","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}',
      '{"type":"future_thing","id":"bbbbbbbb","parentId":"aaaaaaaa","timestamp":"2026-01-01T00:00:02.000Z","x":1}',
      '{"type":"message","id":"cccccccc","parentId":"bbbbbbbb","timestamp":"2026-01-01T00:00:03.000Z","message":{"role":"user","content":"after","timestamp":2}}',
    ];
    const content = `${lines.join('\n')}\n`;
    fs.writeFileSync(file, content);
    const store = SessionStore.open(file);
    expect(store.openReport.badLines).toEqual([3]);
    expect(store.openReport.problems[0]?.reason).toMatch(/unknown entry type "future_thing"/);
    expect(store.getNode('bbbbbbbb')).toMatchObject({ type: 'future_thing', parentId: 'aaaaaaaa' });
    expect(store.getNode('cccccccc')?.parentId).toBe('bbbbbbbb');
    expect(store.openReport.orphans).toEqual([]);
    expect(store.buildSessionContext().messages.map((m) => m.role)).toEqual(['user', 'user']);
    store.close();
    expect(fs.readFileSync(file, 'utf8')).toBe(content);
  });

  it('refuses to read bodies from disk after close, with a clear error', () => {
    const store = SessionStore.create({ cwd: '/w', sessionDir: tempDir() });
    const u = store.appendMessage(userMessage('q'));
    store.appendMessage(assistantMessage('a'));
    store.branch(u);
    const file = store.file!;
    store.close();
    const reopened = SessionStore.open(file);
    const answer = reopened.getTree()[1]!.id;
    reopened.close();
    expect(() => reopened.getEntry(answer)).toThrow(/is closed/);
    expect(() => reopened.appendMessage(userMessage('x'))).toThrow(/closed/);
  });

  it('opens read-only without a lock and refuses writes', () => {
    const store = SessionStore.create({ cwd: '/w', sessionDir: tempDir() });
    store.appendMessage(userMessage('q'));
    const reader = SessionStore.openReadOnly(store.file!);
    expect(reader.getTree()).toHaveLength(1);
    expect(() => reader.appendMessage(userMessage('x'))).toThrow(/read-only/);
    reader.close();
    store.close();
  });
});
