import { test, expect, watchConsole } from './support/fixtures.js';
import {
  chatMessages,
  conversation,
  editor,
  openArbor,
  sendPrompt,
  waitIdle,
} from './support/page-helpers.js';

const LONG_FIRST_LINE = Array.from({ length: 40 }, (_, i) => `word${i + 1}`).join(' ');

test('two tabs on one session see one stream', async ({ page, context, arbor, consoleErrors }) => {
  await openArbor(page, arbor.url);
  await sendPrompt(page, 'opening line');
  const second = await context.newPage();
  watchConsole(second, consoleErrors);
  await openArbor(second, page.url());
  // The recorded prompt and tools (pi 1.6), the opening line and its answer.
  await expect(chatMessages(second)).toHaveCount(3);

  await editor(page).fill(`${LONG_FIRST_LINE}\n/slow 30`);
  await editor(page).press('Enter');
  // The second tab sees the answer while it streams, then complete.
  await expect(conversation(second).locator('[aria-busy="true"]')).toHaveCount(1);
  await waitIdle(second);
  await expect(chatMessages(second, 'assistant').last()).toContainText('word40');
  await expect(chatMessages(second)).toHaveCount(5);
  await waitIdle(page);
  const firstIds = await chatMessages(page).evaluateAll((els) =>
    els.map((e) => e.getAttribute('data-entry-id')),
  );
  const secondIds = await chatMessages(second).evaluateAll((els) =>
    els.map((e) => e.getAttribute('data-entry-id')),
  );
  expect(secondIds).toEqual(firstIds);
});

test('a connection dropped mid-stream resumes and shows the whole answer once', async ({
  page,
  arbor,
}) => {
  let offline = false;
  const connections: { close(): Promise<void> }[] = [];
  await page.routeWebSocket('**/api/ws', (ws) => {
    if (offline) {
      void ws.close({ code: 4000, reason: 'offline' });
      return;
    }
    const server = ws.connectToServer();
    connections.push({
      close: async () => {
        await server.close();
        await ws.close({ code: 4000, reason: 'network dropped' });
      },
    });
  });
  await openArbor(page, arbor.url);
  await sendPrompt(page, 'before the drop');

  await editor(page).fill(`${LONG_FIRST_LINE}\n/slow 60`);
  await editor(page).press('Enter');
  const streaming = conversation(page).locator('[data-role="assistant"][aria-busy="true"]');
  await expect(streaming).toContainText('word3');

  offline = true;
  await Promise.all(connections.splice(0).map((c) => c.close()));
  await expect(page.locator('.connection')).toHaveText('Reconnecting to the server…');
  await page.waitForTimeout(600);
  offline = false;

  await expect(page.locator('.connection')).toHaveText('', { timeout: 15_000 });
  await waitIdle(page);
  const answers = chatMessages(page, 'assistant');
  await expect(answers).toHaveCount(2);
  await expect(answers.last()).toContainText(`You said: "${LONG_FIRST_LINE}"`);
  await expect(chatMessages(page, 'user')).toHaveCount(2);
});

test('one queued follow-up can be taken back into the editor and another removed', async ({
  page,
  arbor,
}) => {
  await openArbor(page, arbor.url);
  await editor(page).fill(`${LONG_FIRST_LINE}\n/slow 100`);
  await editor(page).press('Enter');
  await expect(conversation(page).locator('[aria-busy="true"]')).toHaveCount(1);
  for (const text of ['first follow-up', 'second follow-up']) {
    await editor(page).fill(text);
    await editor(page).press('Alt+Enter');
  }
  const queue = page.getByRole('list').filter({ hasText: 'first follow-up' });
  await expect(queue.getByRole('listitem')).toHaveCount(2);

  await page.getByRole('button', { name: 'Edit queued follow-up: first follow-up' }).click();
  await expect(editor(page)).toHaveValue('first follow-up');
  await page.getByRole('button', { name: 'Remove queued follow-up: second follow-up' }).click();
  await expect(page.getByLabel('Queued messages')).toHaveCount(0);

  await waitIdle(page);
  // Neither follow-up ran: the conversation is the recorded prompt, the prompt and its answer.
  await expect(chatMessages(page)).toHaveCount(3);
  await expect(editor(page)).toHaveValue('first follow-up');
});
