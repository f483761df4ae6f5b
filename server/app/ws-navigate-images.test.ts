import { expect, it } from 'vitest';
import type { EventFrame } from '../../shared/protocol.js';
import { serverPerTest } from './test-support/test-server.js';

/*
 * A click on a prompt puts it back in the editor: its images as well as its text, so the prompt
 * can be edited and run again as it was sent (product §2).
 */

const tests = serverPerTest();

// A 1×1 PNG.
const pixel = {
  type: 'image',
  mimeType: 'image/png',
  data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
} as const;

it('navigate_tree to a prompt with an image answers with its text and its image', async () => {
  const server = await tests.start();
  const client = await tests.open();
  const sessionId = await client.newSession(server.workspaceId);
  await client.ok({ type: 'prompt', sessionId, text: 'what is in this picture?', images: [pixel] });
  await client.waitForEvent(sessionId, 'agent_end');
  const appended = client
    .events(sessionId)
    .map((frame: EventFrame) => frame.event)
    .find((event) => event.type === 'entry_appended' && event.node.role === 'user');
  const promptId = appended?.type === 'entry_appended' ? appended.node.id : undefined;
  expect(promptId).toBeDefined();

  const result = await client.ok({ type: 'navigate_tree', sessionId, targetId: promptId });
  expect(result).toEqual({
    cancelled: false,
    editorText: 'what is in this picture?',
    editorImages: [pixel],
  });
});
