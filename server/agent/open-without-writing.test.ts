import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionStore } from '../store/session-store.js';
import { startHarness, type Harness } from '../test-support/agent-harness.js';

/*
 * Opening a session writes nothing (decision 053): what pi's SDK writes when a session starts (the
 * model, the thinking level) is written by the first prompt of a session that was only looked at.
 */

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness.close();
});

function entryTypes(file: string): string[] {
  return fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { type: string }).type);
}

describe('a session with no entries, opened to be written on demand', () => {
  it('is not written by opening, and its first prompt records the model and thinking level first', async () => {
    const created = SessionStore.create({ cwd: harness.workspace, sessionDir: harness.sessionDir });
    const file = created.file!;
    created.close();
    const before = fs.readFileSync(file);

    const { session, waitFor } = await harness.open({
      store: SessionStore.open(file, { writableOnDemand: true }),
    });
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    expect(fs.existsSync(`${file}.lock`)).toBe(false);

    await session.prompt('hello');
    await waitFor((event) => event.type === 'agent_end');
    expect(entryTypes(file)).toEqual([
      'session',
      'model_change',
      'thinking_level_change',
      'message', // the prompt and tools (pi 1.6)
      'message',
      'message',
    ]);
  });
});
