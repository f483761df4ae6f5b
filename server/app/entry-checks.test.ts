import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionStore } from '../store/session-store.js';
import { sessionDirFor } from '../store/session-paths.js';
import { userMessage } from '../test-support/messages.js';
import { serverPerTest } from './test-support/test-server.js';
import type { WsTestClient } from './test-support/ws-test-client.js';

/*
 * A label's target, a session's name and the entry a fork starts from are checked once, by the
 * store; the socket route and the HTTP route pass the values through and clients get the store's
 * answer, with the catalog's code.
 */

const tests = serverPerTest();

interface Seeded {
  sessionId: string;
  file: string;
  prompt: string;
  answer: string;
}

function seed(dataDir: string): Seeded {
  const workspace = fs.realpathSync(path.join(path.dirname(dataDir), 'ws0'));
  const store = SessionStore.create({
    cwd: workspace,
    sessionDir: sessionDirFor(dataDir, workspace),
  });
  const prompt = store.appendMessage(userMessage('first'));
  const answer = store.appendCustomMessageEntry('note', 'not a prompt', true);
  const seeded = { sessionId: store.sessionId, file: store.file!, prompt, answer };
  store.close();
  return seeded;
}

/** The label entries of the session file, as written. */
function labelsWritten(file: string): { targetId: string; label?: string }[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.includes('"type":"label"'))
    .map((line) => JSON.parse(line) as { targetId: string; label?: string })
    .map(({ targetId, label }) => (label === undefined ? { targetId } : { targetId, label }));
}

async function opened(): Promise<{ client: WsTestClient; seeded: Seeded }> {
  let seeded = {} as Seeded;
  await tests.start({ prepare: (dataDir) => void (seeded = seed(dataDir)) });
  const client = await tests.open();
  await client.ok({ type: 'subscribe', sessionId: seeded.sessionId });
  return { client, seeded };
}

describe('checks on entries and names, made once in the store', () => {
  it('a label is trimmed, a blank one clears it, and an unknown target is not_found', async () => {
    const { client, seeded } = await opened();
    const { sessionId, prompt } = seeded;
    await client.ok({ type: 'set_label', sessionId, entryId: prompt, label: '  spaced  ' });
    await client.ok({ type: 'set_label', sessionId, entryId: prompt, label: '   ' });
    expect(labelsWritten(seeded.file)).toEqual([
      { targetId: prompt, label: 'spaced' },
      { targetId: prompt },
    ]);
    expect(
      await client.request({ type: 'set_label', sessionId, entryId: 'nosuchentry', label: 'x' }),
    ).toMatchObject({
      ok: false,
      error: { code: 'not_found', message: 'No entry nosuchentry in this session.' },
    });
  });

  it('a name of spaces and line breaks is refused over the socket and over HTTP', async () => {
    const { client, seeded } = await opened();
    const { sessionId } = seeded;
    expect(
      await client.request({ type: 'set_session_name', sessionId, name: ' \n ' }),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', message: 'A session name cannot be empty.' },
    });
    const rename = await tests.server.app.inject({
      method: 'PATCH',
      url: `/api/sessions/${sessionId}`,
      payload: { name: '\r\n  ' },
    });
    expect(rename.statusCode).toBe(400);
    expect(rename.json()).toEqual({
      error: { code: 'invalid_argument', message: 'A session name cannot be empty.' },
    });
    await client.ok({ type: 'set_session_name', sessionId, name: ' two\nlines ' });
    const state = await tests.server.app.inject({
      url: `/api/workspaces/${tests.server.workspaceId}/sessions`,
    });
    expect(state.json().sessions).toMatchObject([{ id: sessionId, name: 'two lines' }]);
  });

  it('a fork from anything but a user message is refused, from an unknown entry not_found', async () => {
    const { client, seeded } = await opened();
    const { sessionId, answer } = seeded;
    expect(await client.request({ type: 'fork', sessionId, entryId: answer })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', message: 'Only a user message can be forked from.' },
    });
    expect(await client.request({ type: 'fork', sessionId, entryId: 'nosuchentry' })).toMatchObject(
      { ok: false, error: { code: 'not_found', message: 'No entry nosuchentry in this session.' } },
    );
  });

  it('a move to an unknown entry is not_found', async () => {
    const { client, seeded } = await opened();
    expect(
      await client.request({
        type: 'navigate_tree',
        sessionId: seeded.sessionId,
        targetId: 'nosuchentry',
      }),
    ).toMatchObject({
      ok: false,
      error: { code: 'not_found', message: 'No entry nosuchentry in this session.' },
    });
  });
});
