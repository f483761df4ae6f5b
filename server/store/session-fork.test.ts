import fs from 'node:fs';
import path from 'node:path';
import { SessionManager } from '@mariozechner/pi-coding-agent';
import { describe, expect, it } from 'vitest';
import { SessionStore } from './session-store.js';
import { useTempDirs } from './test-support/temp-dir.js';
import { expectSameContextsAsPi } from './test-support/pi-compare.js';
import { assistantMessage, userMessage } from '../test-support/messages.js';

const tempDir = useTempDirs();

function conversation(dir: string) {
  const store = SessionStore.create({ cwd: '/w', sessionDir: dir });
  const model = store.appendModelChange('demo', 'demo-model');
  const u1 = store.appendMessage(userMessage('first'));
  const a1 = store.appendMessage(assistantMessage('first answer'));
  store.appendLabelChange(a1, 'checkpoint');
  store.appendLabelChange(u1, 'start');
  const u2 = store.appendMessage({
    role: 'user',
    content: [
      { type: 'text', text: 'second ' },
      { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      { type: 'text', text: 'question' },
    ],
    timestamp: 5,
  });
  const a2 = store.appendMessage(assistantMessage('second answer'));
  return { store, model, u1, a1, u2, a2 };
}

describe('fork', () => {
  it('copies the path up to the user message’s parent, re-creates labels, returns the text', () => {
    const dir = tempDir();
    const { store, u1, a1, u2, model } = conversation(dir);
    const { store: fork, text } = store.forkFrom(u2, dir);
    expect(text).toBe('second question');
    expect(fork.header.parentSession).toBe(store.file);
    expect(fork.file).not.toBe(store.file);
    const types = fork.getTree().map((n) => [n.id, n.type]);
    expect(types.slice(0, 3)).toEqual([
      [model, 'model_change'],
      [u1, 'message'],
      [a1, 'message'],
    ]);
    expect(types.slice(3).map(([, type]) => type)).toEqual(['label', 'label']);
    expect(fork.getLabel(a1)).toBe('checkpoint');
    expect(fork.getLabel(u1)).toBe('start');
    expect(fork.buildSessionContext().messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    const forkFile = fork.file!;
    fork.close();
    store.close();
    // Entries keep their ids and timestamps; pi reads the fork and agrees on every context.
    expect(expectSameContextsAsPi(forkFile)).toBe(5);
    const pi = SessionManager.open(forkFile);
    expect(pi.getHeader()?.parentSession).toBe(path.resolve(dir, path.basename(store.file!)));
  });

  it('forking the root user message gives an empty session with the parent set', () => {
    const dir = tempDir();
    const store = SessionStore.create({ cwd: '/w', sessionDir: dir });
    const u1 = store.appendMessage(userMessage('only'));
    const { store: fork, text } = store.forkFrom(u1, dir);
    expect(text).toBe('only');
    expect(fork.getTree()).toEqual([]);
    expect(fork.header.parentSession).toBe(store.file);
    fork.close();
    store.close();
  });

  it('refuses anything but a user message, and a relative target directory', () => {
    const dir = tempDir();
    const { store, a1, u2 } = conversation(dir);
    expect(() => store.forkFrom(a1, dir)).toThrow(
      expect.objectContaining({
        code: 'invalid_request',
        message: 'Only a user message can be forked from.',
      }),
    );
    expect(() => store.forkFrom('nope', dir)).toThrow(
      expect.objectContaining({
        code: 'entry_not_found',
        message: 'No entry nope in this session.',
      }),
    );
    expect(() => store.forkFrom(u2, '../elsewhere')).toThrow(/absolute path/);
    expect(() => store.cloneTo('relative/dir')).toThrow(/absolute path/);
    expect(fs.readdirSync(dir).filter((n) => n.endsWith('.jsonl'))).toHaveLength(1);
    store.close();
  });

  it('re-attaches an entry whose parent was a label, so the copied path stays whole', () => {
    const dir = tempDir();
    const store = SessionStore.create({ cwd: '/w', sessionDir: dir });
    const u1 = store.appendMessage(userMessage('one'));
    store.appendLabelChange(u1, 'L');
    const a1 = store.appendMessage(assistantMessage('after label'));
    const u2 = store.appendMessage(userMessage('two'));
    const { store: fork } = store.forkFrom(u2, dir);
    expect(fork.getEntry(a1)?.parentId).toBe(u1);
    expect(fork.buildSessionContext().messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(fork.openReport.orphans).toEqual([]);
    fork.close();
    store.close();
  });
});

describe('clone', () => {
  it('copies the active path into a new file; leaf markers are not copied', () => {
    const dir = tempDir();
    const { store, a1 } = conversation(dir);
    store.branch(a1);
    const clone = store.cloneTo(dir);
    expect(clone.getTree().filter((n) => n.type === 'message')).toHaveLength(2);
    expect(clone.buildSessionContext()).toEqual(store.buildSessionContext());
    const cloneFile = clone.file!;
    clone.close();
    store.close();
    expect(fs.readFileSync(cloneFile, 'utf8')).not.toContain('arbor.leaf');
    expectSameContextsAsPi(cloneFile);
  });

  it('cloning at the root gives an empty session', () => {
    const dir = tempDir();
    const store = SessionStore.create({ cwd: '/w', sessionDir: dir });
    store.appendMessage(userMessage('q'));
    store.resetLeaf();
    const clone = store.cloneTo(dir);
    expect(clone.getTree()).toEqual([]);
    clone.close();
    store.close();
  });
});
