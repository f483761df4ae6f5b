import fs from 'node:fs';
import { test, expect } from './support/fixtures.js';
import { chatMessages, conversation, leafNode } from './support/page-helpers.js';
import { generateSession } from '../bench/ui/generate-session.js';

test('a long session: the newest messages show at once and "Show earlier" brings back the first prompt', async ({
  page,
  arbor,
}) => {
  // About 140 turns on the active path (570 messages), far more than a snapshot carries.
  const session = generateSession(arbor.dataDir, fs.realpathSync(arbor.workspace), 1400);
  const snapshots: { messages: number; omitted: number }[] = [];
  const fetched: string[] = [];
  page.on('websocket', (socket) => {
    socket.on('framereceived', ({ payload }) => {
      if (typeof payload !== 'string' || !payload.startsWith('{"type":"snapshot"')) return;
      const frame = JSON.parse(payload) as { messages: unknown[]; omittedMessages?: number };
      snapshots.push({ messages: frame.messages.length, omitted: frame.omittedMessages ?? 0 });
    });
    socket.on('framesent', ({ payload }) => {
      if (typeof payload !== 'string') return;
      const frame = JSON.parse(payload) as { type?: string; ids?: string[] };
      if (frame.type === 'get_entries') fetched.push(...(frame.ids ?? []));
    });
  });
  await page.goto(`${arbor.url}/?session=${session.sessionId}`);
  await expect(leafNode(page)).toHaveAttribute('data-entry-id', session.leafId);

  // The newest prompt and answer are drawn, with their text; the first prompt is not drawn yet.
  const newest = session.recentPrompts.at(-1)!;
  await expect(chatMessages(page, 'user').last()).toContainText(newest.text);
  await expect(chatMessages(page).last()).toContainText(/Done with task \d+\. The tests pass\./);
  await expect(conversation(page).locator('[aria-busy="true"]')).toHaveCount(0);
  const first = conversation(page).locator('[data-role="user"]', {
    hasText: 'Task 1: update module 1 and run its tests',
  });
  await expect(first).toHaveCount(0);

  // The snapshot carried only the newest messages and said how many it left out.
  expect(snapshots.length).toBeGreaterThan(0);
  expect(snapshots[0]!.messages).toBe(200);
  expect(snapshots[0]!.omitted).toBeGreaterThan(200);
  // Nothing older was fetched while the user has not asked for it.
  expect(fetched).toEqual([]);

  // Reveal step by step until the first prompt is drawn; its body is fetched on demand.
  const showEarlier = conversation(page).getByRole('button', {
    name: /^Show \d+ earlier messages/,
  });
  for (let clicks = 0; clicks < 10 && (await first.count()) === 0; clicks++) {
    await showEarlier.click();
    await expect(conversation(page).locator('[aria-busy="true"]')).toHaveCount(0);
  }
  await expect(first).toHaveCount(1);
  await expect(first).toContainText('Task 1: update module 1 and run its tests');
  await expect(chatMessages(page).first()).toHaveAttribute('data-role', 'user');
  await expect(showEarlier).toHaveCount(0);
  // Each revealed body was fetched once.
  expect(fetched.length).toBe(snapshots[0]!.omitted);
  expect(new Set(fetched).size).toBe(fetched.length);
});
