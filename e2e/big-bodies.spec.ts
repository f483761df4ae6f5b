import { test, expect } from './support/fixtures.js';
import { chatMessages, conversation } from './support/page-helpers.js';
import { assistantLine, headerLine, userLine } from '../server/app/test-support/session-lines.js';

/*
 * A session whose active path holds far more than a socket may buffer: six 1.5 MB messages, then
 * three turns with a 10 MB picture each. The page opens it, stays connected, shows every message
 * (the pictures as a note that they are too large to show, older bodies fetched in rounds).
 */

const SESSION_ID = '0190a000-0000-7000-8000-0000000e2e01';

function bigSession(cwd: string): string {
  let body = headerLine(SESSION_ID, cwd);
  let parent: string | null = null;
  for (let i = 0; i < 6; i++) {
    const id = `long000${i}`;
    body += userLine(id, parent, `long note ${i} ${'y'.repeat(1536 * 1024)}`);
    parent = id;
  }
  const picture = 'A'.repeat(Math.ceil((10 * 1024 * 1024 * 4) / 3));
  for (let i = 0; i < 3; i++) {
    body += userLine(`pict000${i}`, parent, [
      { type: 'text', text: `look at picture ${i}` },
      { type: 'image', data: picture, mimeType: 'image/png' },
    ]);
    body += assistantLine(`asst000${i}`, `pict000${i}`, `a fine picture ${i}`);
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
