import fs from 'node:fs';
import path from 'node:path';
import { SessionManager } from '@mariozechner/pi-coding-agent';
import { describe, expect, it } from 'vitest';
import { listSessions } from './session-listing.js';
import { SessionStore } from './session-store.js';
import { sessionDirFor } from './session-paths.js';
import { copyFixture, PI_FIXTURES, useTempDirs } from './test-support/temp-dir.js';
import { assistantMessage, userMessage } from '../test-support/messages.js';

const tempDir = useTempDirs();

describe('listing sessions', () => {
  it('agrees with pi’s listing on pi’s files: id, cwd, name, first prompt, count, parent', async () => {
    const dir = tempDir();
    for (const name of fs.readdirSync(PI_FIXTURES).filter((n) => n.startsWith('v3'))) {
      copyFixture(name, dir);
    }
    const ours = await listSessions(dir);
    const pi = await SessionManager.list('/unused', dir);
    expect(ours.map((s) => s.file).sort()).toEqual(pi.map((s) => s.path).sort());
    for (const info of ours) {
      const theirs = pi.find((s) => s.path === info.file)!;
      expect(info).toMatchObject({
        id: theirs.id,
        cwd: theirs.cwd,
        firstMessage: theirs.firstMessage,
        messageCount: theirs.messageCount,
        created: theirs.created.toISOString(),
      });
      expect(info.name).toBe(theirs.name);
      expect(info.parentSession).toBe(theirs.parentSessionPath);
    }
  });

  it('lists newest first, skipping files that are not sessions', async () => {
    const data = tempDir();
    const dirA = sessionDirFor(data, '/work/a');
    const older = SessionStore.create({ cwd: '/work/a', sessionDir: dirA });
    older.appendMessage(userMessage('older prompt'));
    older.close();
    await new Promise((resolve) => setTimeout(resolve, 20));
    // A session moved in from another workspace keeps its own cwd.
    const newer = SessionStore.create({ cwd: '/work/b', sessionDir: dirA });
    newer.appendMessage(userMessage('newer prompt'));
    newer.appendMessage(assistantMessage('answer'));
    newer.appendSessionInfo('Named');
    newer.close();
    fs.writeFileSync(path.join(dirA, 'junk.jsonl'), 'not a session\n');
    fs.writeFileSync(path.join(dirA, 'x.jsonl.lock'), '{}');

    const all = await listSessions(dirA);
    expect(all.map((s) => s.firstMessage)).toEqual(['newer prompt', 'older prompt']);
    expect(all[0]).toMatchObject({ name: 'Named', messageCount: 2, cwd: '/work/b' });
    expect(await listSessions(path.join(data, 'missing'))).toEqual([]);
  });

  it('sees entries appended since the last listing', async () => {
    const dir = tempDir();
    const store = SessionStore.create({ cwd: '/w', sessionDir: dir });
    expect((await listSessions(dir))[0]).toMatchObject({
      messageCount: 0,
      firstMessage: '(no messages)',
    });
    store.appendMessage(userMessage('first'));
    store.appendSessionInfo('one');
    expect((await listSessions(dir))[0]).toMatchObject({
      messageCount: 1,
      firstMessage: 'first',
      name: 'one',
    });
    store.appendMessage(assistantMessage('a'));
    store.appendSessionInfo('two');
    expect((await listSessions(dir))[0]).toMatchObject({ messageCount: 2, name: 'two' });
    store.close();
  });

  it('counts messages of a large session without parsing its bodies', async () => {
    const dir = tempDir();
    const store = SessionStore.create({ cwd: '/w', sessionDir: dir });
    store.appendMessage(userMessage('start'));
    for (let i = 0; i < 50; i++) store.appendMessage(assistantMessage('z'.repeat(300_000)));
    store.close();
    const [info] = await listSessions(dir);
    expect(info).toMatchObject({ messageCount: 51, firstMessage: 'start' });
  });
});
