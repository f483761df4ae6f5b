import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../shared/protocol.js';
import { SessionStore } from '../store/session-store.js';
import { sessionDirFor } from '../store/session-paths.js';
import { serverPerTest } from './test-support/test-server.js';

/*
 * A session pi made on a model this server does not know (Claude through Anthropic's API, say)
 * keeps that model: it opens saying so, a prompt is refused with the reason and nothing is
 * written, and the user may pick another model. Before, it silently moved to the default model.
 */

const tests = serverPerTest();

function claudeSession(
  dataDir: string,
  workspacePath: string,
): { sessionId: string; file: string } {
  const store = SessionStore.create({
    cwd: fs.realpathSync(workspacePath),
    sessionDir: sessionDirFor(dataDir, fs.realpathSync(workspacePath)),
  });
  store.appendModelChange('anthropic', 'claude-sonnet-9');
  store.appendMessage({ role: 'user', content: 'hello claude', timestamp: 1 });
  const result = { sessionId: store.sessionId, file: store.file! };
  store.close();
  return result;
}

describe('a session on a model the server does not know', () => {
  it('keeps the model, says why it cannot run, refuses a prompt, and runs once another is picked', async () => {
    const server = await tests.start();
    const { sessionId, file } = claudeSession(server.dataDir, server.workspacePath);
    const client = await tests.open();
    const snapshot = client.next((m) => m.type === 'snapshot' && m.sessionId === sessionId);
    await client.ok({ type: 'subscribe', sessionId });
    const { state } = (await snapshot) as Snapshot;
    expect([state.provider, state.modelId]).toEqual(['anthropic', 'claude-sonnet-9']);
    expect(state.modelProblem).toBe(
      "This session's model anthropic/claude-sonnet-9 is not configured on this server: add its provider to models.json, or choose another model.",
    );

    const before = fs.readFileSync(file);
    const refused = await client.request({ type: 'prompt', sessionId, text: 'go on' });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', message: state.modelProblem },
    });
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    const compact = await client.request({ type: 'compact', sessionId });
    expect(compact).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });

    // A model is the pair: the demo model's id under another provider is no model.
    const wrongPair = await client.request({
      type: 'set_model',
      sessionId,
      provider: 'openai',
      modelId: 'arbor-demo',
    });
    expect(wrongPair).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', message: 'No model "openai/arbor-demo".' },
    });
    await client.ok({ type: 'set_model', sessionId, provider: 'arbor', modelId: 'arbor-demo' });
    await client.prompt(sessionId, 'go on');
    const lines = fs
      .readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; provider?: string; modelId?: string });
    expect(lines.filter((line) => line.type === 'model_change').map((l) => l.modelId)).toEqual([
      'claude-sonnet-9',
      'arbor-demo',
    ]);
    expect(path.basename(file)).toContain(sessionId);
  });
});
