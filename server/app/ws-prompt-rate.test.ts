import { describe, expect, it } from 'vitest';
import { serverPerTest } from './test-support/test-server.js';
import type { WsTestClient } from './test-support/ws-test-client.js';

/*
 * A member who floods prompts: `promptsPerMinute` holds per user, across all of that user's
 * connections (server/hub/rate-limiter.ts; decision 090 says why it is not @fastify/rate-limit).
 */

const tests = serverPerTest();

async function openSession(): Promise<{ client: WsTestClient; sessionId: string }> {
  const client = await tests.open();
  const sessionId = await client.newSession(tests.server.workspaceId);
  return { client, sessionId };
}

describe('prompts per minute', () => {
  it('refuses the prompt past the limit with rate_limited, on another connection too', async () => {
    await tests.start({ config: { promptsPerMinute: 2 } });
    const first = await openSession();
    for (const text of ['one', 'two']) {
      const ended = first.client.waitForEvent(first.sessionId, 'agent_end');
      await first.client.ok({ type: 'prompt', sessionId: first.sessionId, text });
      await ended;
    }
    const refused = await first.client.request({
      type: 'prompt',
      sessionId: first.sessionId,
      text: 'three',
    });
    expect(refused.ok).toBe(false);
    expect(refused.ok ? undefined : refused.error.code).toBe('rate_limited');

    // A fresh connection of the same user does not get a fresh allowance.
    const second = await openSession();
    const again = await second.client.request({
      type: 'follow_up',
      sessionId: second.sessionId,
      text: 'four',
    });
    expect(again.ok ? undefined : again.error.code).toBe('rate_limited');
  });

  it('counts the editor shell command against the same limit', async () => {
    // Unsandboxed bash runs on any machine; the limit is what is under test.
    await tests.start({
      config: { promptsPerMinute: 2, allowUnsandboxedBash: true },
    });
    const { client, sessionId } = await openSession();
    await client.ok({ type: 'bash', sessionId, command: 'true' });
    await client.ok({ type: 'bash', sessionId, command: 'true' });
    const refused = await client.request({ type: 'bash', sessionId, command: 'echo flood' });
    expect(refused.ok ? undefined : refused.error.code).toBe('rate_limited');
  });
});
