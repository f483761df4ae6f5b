import { test, expect } from './support/fixtures.js';
import { chatMessages, conversation } from './support/page-helpers.js';

/*
 * A session whose active path holds far more than a socket may buffer: six 1.5 MB messages, then
 * three turns with a 10 MB picture each. The page opens it, stays connected, shows every message
 * (the pictures as a note that they are too large to show, older bodies fetched in rounds).
 */

const SESSION_ID = '0190a000-0000-7000-8000-0000000e2e01';
const TIME = '2026-01-02T03:04:05.000Z';

function line(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}

function user(id: string, parentId: string | null, content: unknown): string {
  return line({
    type: 'message',
    id,
    parentId,
    timestamp: TIME,
    message: { role: 'user', content, timestamp: 1 },
  });
}

function assistant(id: string, parentId: string, text: string): string {
  return line({
    type: 'message',
    id,
    parentId,
    timestamp: TIME,
    message: {
      role: 'assistant',
      content: [{ type: 'text', text }],
      api: 'openai-completions',
      provider: 'demo',
      model: 'arbor-demo',
      usage: {
        input: 1,
        output: 1,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 2,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      },
      stopReason: 'stop',
      timestamp: 2,
    },
  });
}

function bigSession(cwd: string): string {
  let body = line({ type: 'session', version: 3, id: SESSION_ID, timestamp: TIME, cwd });
  let parent: string | null = null;
  for (let i = 0; i < 6; i++) {
    const id = `long000${i}`;
    body += user(id, parent, `long note ${i} ${'y'.repeat(1536 * 1024)}`);
    parent = id;
  }
  const picture = 'A'.repeat(Math.ceil((10 * 1024 * 1024 * 4) / 3));
  for (let i = 0; i < 3; i++) {
    body += user(`pict000${i}`, parent, [
      { type: 'text', text: `look at picture ${i}` },
      { type: 'image', data: picture, mimeType: 'image/png' },
    ]);
    body += assistant(`asst000${i}`, `pict000${i}`, `a fine picture ${i}`);
    parent = `asst000${i}`;
  }
  return body;
}

test('a session with 10 MB pictures on its path opens, stays connected and shows every message', async ({
  page,
  arbor,
}) => {
  const workspaces = (await (await fetch(`${arbor.url}/api/workspaces`)).json()) as {
    workspaces: { id: string }[];
  };
  const imported = await fetch(
    `${arbor.url}/api/workspaces/${workspaces.workspaces[0]!.id}/import`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: bigSession(arbor.workspace),
    },
  );
  expect(imported.status).toBe(201);

  await page.goto(`${arbor.url}/?session=${SESSION_ID}`);
  await expect(conversation(page)).toContainText('a fine picture 2');
  await expect(chatMessages(page)).toHaveCount(12);
  await expect(conversation(page)).toContainText('image/png image of 10.0 MB');
  await expect(conversation(page)).toContainText('too large to send to the page');
  // The older, merely big bodies arrive in full, over several answers.
  await expect(conversation(page)).toContainText('long note 0');
  await expect(conversation(page).getByText('Loading…')).toHaveCount(0);
  await expect(conversation(page).getByText('could not be read')).toHaveCount(0);
  await expect(page.getByRole('banner').getByRole('status')).toHaveText('');
});
