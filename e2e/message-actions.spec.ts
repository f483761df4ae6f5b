import type { Page } from '@playwright/test';
import { test, expect } from './support/fixtures.js';
import { writePiSession } from './support/pi-session-file.js';
import {
  chatMessages,
  editor,
  leafNode,
  openArbor,
  sendPrompt,
  treeNodes,
  waitIdle,
} from './support/page-helpers.js';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

test('a prompt offers Edit, Rerun and Copy; an answer offers Copy', async ({ page, arbor }) => {
  await openArbor(page, arbor.url);
  await sendPrompt(page, 'first question');
  await sendPrompt(page, 'second question');
  const first = chatMessages(page, 'user').filter({ hasText: 'first question' });
  const second = chatMessages(page, 'user').filter({ hasText: 'second question' });

  // Copy: the message's own text, and the button says it is done.
  await first.getByRole('button', { name: 'Copy' }).click();
  await expect(first.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await clipboard(page)).toBe('first question');
  const answer = chatMessages(page, 'assistant').first();
  await answer.getByRole('button', { name: 'Copy' }).click();
  expect(await clipboard(page)).toBe('You said: "first question"');

  // Edit: back to before the prompt, its text in the editor, as a click on its node.
  await editor(page).fill('a draft of mine');
  await second.getByRole('button', { name: 'Edit' }).click();
  await expect(editor(page)).toHaveValue('second question');
  await expect(leafNode(page)).toHaveAttribute('data-role', 'assistant');
  await expect(chatMessages(page, 'user').filter({ hasText: 'second question' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Restore draft' })).toBeVisible();

  // Rerun: the same move, sent at once as a new branch; the editor is left as it was.
  await first.getByRole('button', { name: 'Rerun' }).click();
  await expect(treeNodes(page, 'user').filter({ hasText: 'first question' })).toHaveCount(2);
  await waitIdle(page);
  await expect(leafNode(page)).toHaveAttribute('data-role', 'assistant');
  await expect(chatMessages(page, 'user')).toHaveCount(1);
  await expect(chatMessages(page, 'assistant')).toHaveText([/You said: "first question"/]);
  await expect(editor(page)).toHaveValue('second question');
});

test('a code block in an answer has its own Copy', async ({ page, arbor }) => {
  const code = 'const tree = new Map();\ntree.set("root", []);';
  const session = writePiSession(arbor.dataDir, arbor.workspace, [
    { role: 'user', text: 'show me code' },
    { role: 'assistant', text: `Here it is:\n\n\`\`\`js\n${code}\n\`\`\`\n\nThat is all.` },
  ]);
  await page.goto(`${arbor.url}/?session=${session.sessionId}`);
  const answer = chatMessages(page, 'assistant');
  await answer.getByRole('button', { name: 'Copy code' }).click();
  await expect(answer.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await clipboard(page)).toBe(code);
  // A viewer's page or not, a prompt's Edit and Rerun need the right to write: here they are there.
  await expect(chatMessages(page, 'user').getByRole('button', { name: 'Rerun' })).toBeEnabled();
});
