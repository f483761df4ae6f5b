import { describe, expect, it } from 'vitest';
import { SessionStore } from './session-store.js';
import { expectSameAsPi16 } from './test-support/pi16-compare.js';
import {
  assistantMessage,
  customMessage,
  toolResultMessage,
  userMessage,
} from '../test-support/messages.js';
import { useTempDirs } from './test-support/temp-dir.js';

/*
 * The store's context edits over real files, every editable kind (user, assistant, tool result,
 * custom message) and the refusals pi 1.6 makes plus the one Arbor adds (a compacted target);
 * pi 1.6 then reads each file to Arbor's context at every entry.
 */

const tempDir = useTempDirs();

function session() {
  const store = SessionStore.create({ cwd: '/tmp', sessionDir: tempDir() });
  const user = store.appendMessage(userMessage('list the files'));
  const call = store.appendMessage(
    assistantMessage('Looking.', { toolCalls: [{ id: 'c1', name: 'bash' }] }),
  );
  const result = store.appendMessage(toolResultMessage('c1', 'a.txt\nsecret.key'));
  const note = store.appendMessage(customMessage('a note for the model'));
  const answer = store.appendMessage(assistantMessage('Two files.'));
  return { store, user, call, result, note, answer };
}

function texts(store: SessionStore): string[] {
  return store.buildSessionContext().messages.map((message) => {
    const content: unknown = 'content' in message ? message.content : '';
    const text =
      typeof content === 'string'
        ? content
        : (content as { type: string; text?: string }[])
            .map((block) => (block.type === 'text' ? block.text : `[${block.type}]`))
            .join(' ');
    return `${message.role}: ${text}`;
  });
}

describe('SessionStore.appendContextEdit', () => {
  it('hides and replaces every editable kind at the leaf, as pi 1.6 reads it', async () => {
    const { store, user, call, result, note, answer } = session();
    const edits = [
      store.appendContextEdit(result, { text: 'a.txt and one more file' }),
      store.appendContextEdit(note, { hide: true }),
      store.appendContextEdit(user, { text: 'list them' }),
      store.appendContextEdit(answer, { text: 'Two.' }),
    ];
    expect(store.getLeafId()).toBe(edits.at(-1));
    expect(store.getEntry(edits[0]!)).toMatchObject({
      parentId: answer,
      replacement: { content: [{ type: 'text', text: 'a.txt and one more file' }] },
    });
    expect(store.getEntry(edits[2]!)).toMatchObject({ replacement: { content: 'list them' } });
    expect(texts(store)).toEqual([
      'user: list them',
      'assistant: Looking. [toolCall]',
      'toolResult: a.txt and one more file',
      'assistant: Two.',
    ]);
    // Undo: the original content back, the latest edit wins.
    store.appendContextEdit(call, { hide: true });
    store.appendContextEdit(call, { restore: true });
    store.appendContextEdit(note, { restore: true });
    expect(texts(store)).toContain('custom: a note for the model');
    expect(texts(store)).toContain('assistant: Looking. [toolCall]');
    const file = store.file!;
    store.close();
    await expectSameAsPi16(file);
  });

  it('refuses other kinds, targets off the path, unknown ids and an undo of nothing', () => {
    const { store, user, answer } = session();
    const edit = store.appendContextEdit(answer, { hide: true });
    const model = store.appendModelChange('demo', 'other');
    expect(() => store.appendContextEdit(edit, { hide: true })).toThrow(/is a context_edit/);
    expect(() => store.appendContextEdit(model, { text: 'x' })).toThrow(/is a model_change/);
    expect(() => store.appendContextEdit('ffffffff', { hide: true })).toThrow(/No entry/);
    expect(() => store.appendContextEdit(user, { restore: true })).toThrow(/nothing to undo/);
    store.branch(user);
    expect(() => store.appendContextEdit(answer, { hide: true })).toThrow(/not on the active path/);
    store.close();
  });

  it('refuses a message a compaction left out of the context', async () => {
    const { store, user, answer } = session();
    const second = store.appendMessage(userMessage('and now?'));
    store.appendCompaction('They listed files.', second, 1000);
    expect(() => store.appendContextEdit(user, { hide: true })).toThrow(/was compacted/);
    expect(() => store.appendContextEdit(answer, { text: 'x' })).toThrow(/was compacted/);
    store.appendContextEdit(second, { text: 'and then?' });
    expect(texts(store).at(-1)).toBe('user: and then?');
    const file = store.file!;
    store.close();
    await expectSameAsPi16(file);
  });
});
