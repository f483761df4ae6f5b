import type { WsTestClient } from '../../app/test-support/ws-test-client.js';

/**
 * Opens a new session on `client` and has the demo model run `command` with the bash tool in it,
 * as a prompt that names the tool would; answers the tool's end event once the run is over.
 */
export async function bashInNewSession(
  client: WsTestClient,
  workspaceId: string,
  command: string,
): Promise<{ sessionId: string; result: unknown }> {
  const { sessionId } = await client.ok<{ sessionId: string }>({
    type: 'new_session',
    workspaceId,
  });
  await client.ok({ type: 'subscribe', sessionId });
  const ended = client.next(
    (m) => m.type === 'event' && m.sessionId === sessionId && m.event.type === 'agent_end',
    30_000,
  );
  await client.ok({
    type: 'prompt',
    sessionId,
    text: `look around\n/tool bash ${JSON.stringify({ command })}`,
  });
  await ended;
  const result = client
    .events(sessionId)
    .map((frame) => frame.event)
    .find((event) => event.type === 'tool_execution_end');
  return { sessionId, result };
}
