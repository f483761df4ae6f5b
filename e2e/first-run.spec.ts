import { test, expect } from './support/fixtures.js';
import {
  chatMessages,
  editor,
  leafNode,
  openArbor,
  pickModel,
  sendPrompt,
  treeNodes,
} from './support/page-helpers.js';

test('a new user can type at once and gets a streamed answer in the chat and the graph', async ({
  page,
  arbor,
}) => {
  await openArbor(page, arbor.url);
  await expect(editor(page)).toBeFocused();
  await sendPrompt(page, 'hello Arbor');

  await expect(chatMessages(page, 'user')).toHaveText([/hello Arbor/]);
  await expect(chatMessages(page, 'assistant')).toHaveText([/You said: "hello Arbor"/]);

  const userNode = treeNodes(page, 'user');
  await expect(userNode).toHaveCount(1);
  await expect(userNode).toHaveAttribute('aria-label', /^user: hello Arbor/);
  await expect(leafNode(page)).toHaveAttribute('data-role', 'assistant');
  await expect(leafNode(page)).toHaveAttribute('aria-label', /^assistant: You said/);

  // Every chat message and tree node carries its entry id, and they agree.
  const chatIds = await chatMessages(page).evaluateAll((els) =>
    els.map((el) => el.getAttribute('data-entry-id')),
  );
  for (const id of chatIds)
    await expect(treeNodes(page).and(page.locator(`[data-entry-id="${id}"]`))).toHaveCount(1);

  // The session is listed with its first prompt.
  await expect(page.getByRole('navigation', { name: 'Sessions' })).toContainText('hello Arbor');

  // The thinking level shows what the session state reports and offers what the model supports:
  // the demo model does not reason, so "off" only; gpt-5-mini cannot turn thinking off, so its
  // lowest level is "minimal", to which the server clamps the session's "off".
  const thinking = page.getByRole('combobox', { name: 'Thinking level' });
  await expect(thinking).toHaveValue('off');
  await expect(thinking.getByRole('option')).toHaveText(['Off']);
  await pickModel(page, { provider: 'openai', name: 'GPT-5 Mini', typed: 'gpt-5-mini' });
  await expect(thinking).toHaveValue('minimal');
  await expect(thinking.getByRole('option')).toHaveText(['Minimal', 'Low', 'Medium', 'High']);
  await thinking.selectOption('high');
  await expect(thinking).toHaveValue('high');
});

test('an empty session says what Arbor is and offers prompts the demo model answers', async ({
  page,
  arbor,
}) => {
  await openArbor(page, arbor.url);
  const start = page.getByRole('region', { name: 'Getting started' });
  await expect(start).toContainText('Click a prompt in the tree');
  await start.getByRole('button', { name: 'Call a tool' }).click();
  await expect(editor(page)).toBeFocused();
  await expect(editor(page)).toHaveValue('What is in this folder?\n/tool ls {"path":"."}');
  await editor(page).press('Enter');
  await expect(treeNodes(page, 'toolResult')).toHaveCount(1);
  await expect(start).toHaveCount(0);
});

test('the conversation comes first: near the top on a laptop, in the top third on a phone', async ({
  page,
  arbor,
}) => {
  const top = () =>
    page
      .getByRole('log', { name: 'Conversation' })
      .evaluate((element) => element.getBoundingClientRect().top);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openArbor(page, arbor.url);
  await sendPrompt(page, 'where does the conversation start?');
  expect(await top()).toBeLessThan(150);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Chat', exact: true }).click();
  expect(await top()).toBeLessThan(844 / 3);
});

test('the page works on a narrow screen, one panel at a time', async ({ page, arbor }) => {
  await page.setViewportSize({ width: 420, height: 800 });
  await openArbor(page, arbor.url);
  await sendPrompt(page, 'small screen');
  await expect(chatMessages(page, 'assistant')).toHaveText([/small screen/]);
  await page.getByRole('button', { name: 'Tree' }).click();
  await expect(treeNodes(page, 'user')).toHaveCount(1);
  await expect(editor(page)).toBeHidden();
  await page.getByRole('button', { name: 'Chat' }).click();
  await expect(editor(page)).toBeVisible();
});
