import { test, expect } from './support/fixtures.js';
import {
  chatMessages,
  editor,
  entryIdOf,
  leafNode,
  openArbor,
  sendPrompt,
  sessionTree,
  treeNode,
  treeNodes,
} from './support/page-helpers.js';

test('the click rule on user, root and assistant nodes, and an edited prompt makes a sibling branch', async ({
  page,
  arbor,
}) => {
  await openArbor(page, arbor.url);
  await sendPrompt(page, 'first question');
  await sendPrompt(page, 'second question');
  const firstAnswer = treeNode(page, 'assistant', 'first question');
  const firstAnswerId = await entryIdOf(firstAnswer);

  // A user node: the leaf moves to its parent and its text comes back into the editor.
  await treeNode(page, 'user', 'second question').click();
  await expect(editor(page)).toHaveValue('second question');
  await expect(leafNode(page)).toHaveAttribute('data-entry-id', firstAnswerId);
  // The recorded prompt and tools (pi 1.6), the first question and its answer.
  await expect(chatMessages(page)).toHaveCount(3);

  // Edit and send: a sibling branch; the graph shows both prompts.
  await editor(page).fill('second question, edited');
  await editor(page).press('Enter');
  await expect(chatMessages(page, 'assistant').last()).toContainText('second question, edited');
  await expect(treeNodes(page, 'user')).toHaveCount(3);
  const oldPrompt = treeNode(page, 'user', 'second question');
  const newPrompt = treeNode(page, 'user', 'second question, edited');
  await expect(newPrompt).toHaveCount(1);
  await expect(chatMessages(page, 'user')).toHaveText([
    /first question/,
    /second question, edited/,
  ]);
  const edges = page.locator(`.react-flow__edge[data-id^="${firstAnswerId}->"]`);
  await expect(edges).toHaveCount(2);
  await expect(oldPrompt.first()).toBeVisible();

  // An assistant node becomes the leaf; the editor is left alone.
  await editor(page).fill('draft');
  await firstAnswer.click();
  await expect(leafNode(page)).toHaveAttribute('data-entry-id', firstAnswerId);
  await expect(editor(page)).toHaveValue('draft');
  await expect(chatMessages(page)).toHaveCount(3);

  // The first prompt: only the prompt and tools recorded before it are left (as in pi 1.6), its
  // text in the editor.
  await treeNode(page, 'user', 'first question').click();
  await expect(editor(page)).toHaveValue('first question');
  await expect(chatMessages(page)).toHaveCount(1);
  await expect(chatMessages(page, 'system')).toHaveCount(1);
});

test('a reload keeps the leaf', async ({ page, arbor }) => {
  await openArbor(page, arbor.url);
  await sendPrompt(page, 'one');
  await sendPrompt(page, 'two');
  const answerOne = treeNode(page, 'assistant', 'one');
  const answerOneId = await entryIdOf(answerOne);
  await answerOne.click();
  await expect(leafNode(page)).toHaveAttribute('data-entry-id', answerOneId);

  await page.reload();
  await expect(leafNode(page)).toHaveAttribute('data-entry-id', answerOneId);
  await expect(chatMessages(page)).toHaveCount(3); // the recorded prompt, one, its answer
  await expect(treeNodes(page, 'user')).toHaveCount(2);
});

test('keyboard: arrows move along the tree and Enter selects', async ({ page, arbor }) => {
  await openArbor(page, arbor.url);
  await sendPrompt(page, 'alpha');
  await sendPrompt(page, 'beta');
  const leafId = await entryIdOf(leafNode(page));
  await leafNode(page).focus();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect(treeNode(page, 'assistant', 'alpha')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(leafNode(page)).toHaveAttribute('aria-label', /alpha/);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  // The tree's node, not the chat's message with the same id (the chat may still show it).
  await expect(sessionTree(page).locator(`[data-entry-id="${leafId}"]`)).toBeFocused();
});

test('a click on a prompt keeps an unsent draft aside, offered back until the next send', async ({
  page,
  arbor,
}) => {
  await openArbor(page, arbor.url);
  await sendPrompt(page, 'first question');
  await sendPrompt(page, 'second question');
  const restore = page.getByRole('button', { name: 'Restore draft' });
  await expect(restore).toHaveCount(0);

  await editor(page).fill('my unsent thoughts');
  await treeNode(page, 'user', 'first question').click();
  await expect(editor(page)).toHaveValue('first question');
  await expect(restore).toBeVisible();
  // Another click: the prompt it brought is no draft; the one kept is still the user's.
  await treeNode(page, 'user', 'second question').click();
  await expect(editor(page)).toHaveValue('second question');
  await restore.click();
  await expect(editor(page)).toHaveValue('my unsent thoughts');
  await expect(restore).toHaveCount(0);

  // Kept again by the next click, and gone with the next send.
  await treeNode(page, 'user', 'first question').click();
  await expect(restore).toBeVisible();
  await editor(page).press('Enter');
  await expect(chatMessages(page, 'assistant').last()).toContainText('first question');
  await expect(restore).toHaveCount(0);
});
