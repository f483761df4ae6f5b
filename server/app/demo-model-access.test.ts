import { describe, expect, it } from 'vitest';
import type { EventFrame } from '../../shared/protocol.js';
import { serverPerTest } from './test-support/test-server.js';
import { WsTestClient } from './test-support/ws-test-client.js';

/*
 * The demo model mounted on a team server answers the server's own sessions and signed-in users,
 * and nobody else: before, anyone who reached the port could drive it without a login.
 */

const tests = serverPerTest();

const completion = JSON.stringify({
  model: 'arbor-demo',
  messages: [{ role: 'user', content: 'hello' }],
});

function lastAnswer(events: EventFrame[]): string {
  const end = events.findLast(
    (f) => f.event.type === 'message_end' && f.event.message.role === 'assistant',
  );
  if (end?.event.type !== 'message_end' || end.event.message.role !== 'assistant') return '';
  return end.event.message.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

describe('the demo model of a team server', () => {
  it('refuses a caller without a login or with a wrong key, before reading the body', async () => {
    const { server } = await tests.startTeam({ ann: 'member' });
    const post = (headers: Record<string, string>) =>
      fetch(`${server.url}/demo/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: completion,
      });
    const anonymous = await post({});
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: { code: 'invalid_api_key' } });
    expect((await post({ authorization: 'Bearer arbor-demo' })).status).toBe(401);
    expect((await fetch(`${server.url}/demo/v1/models`)).status).toBe(401);
  });

  it('answers a signed-in user and the server own sessions', async () => {
    const { server, cookies } = await tests.startTeam({ ann: 'member' });
    const signedIn = await fetch(`${server.url}/demo/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: cookies.ann },
      body: completion,
    });
    expect(signedIn.status).toBe(200);
    expect(await signedIn.json()).toMatchObject({
      choices: [{ message: { content: 'You said: "hello"' } }],
    });

    const client = tests.track(await WsTestClient.open(server.wsUrl, { cookie: cookies.ann }));
    const sessionId = await client.newSession(server.workspaceId);
    await client.prompt(sessionId, 'from the session');
    expect(lastAnswer(client.events(sessionId))).toBe('You said: "from the session"');
  });
});
