import { test, expect } from './support/fixtures.js';
import {
  chatMessages,
  conversation,
  entryIdOf,
  openArbor,
  sendPrompt,
  treeNodes,
} from './support/page-helpers.js';
import { sessionFileLines } from './support/pi-session-file.js';

/*
 * A person hides one message from the model and replaces what the model sees of another, without
 * branching: the chat strikes the hidden one and shows the replacement beside the original, the
 * graph marks both nodes, and "Undo context edit" brings the originals back. Each step is a pi 1.6
 * context_edit line in the session file.
 */

function contextEditLines(dataDir: string): Record<string, unknown>[] {
  return sessionFileLines(dataDir).filter((entry) => entry.type === 'context_edit');
}

test('a message is hidden from the model, another replaced, and both undone', async ({
  page,
  arbor,
}) => {
  await openArbor(page, arbor.url);
  await sendPrompt(page, 'my password is hunter2');
  await sendPrompt(page, 'what next');

  // Located by entry id: later prompts add messages, and the edited ones must stay the same.
  const secretId = await entryIdOf(chatMessages(page, 'user').first());
  const answerId = await entryIdOf(chatMessages(page, 'assistant').last());
  const secret = conversation(page).locator(`[data-entry-id="${secretId}"]`);
  const answer = conversation(page).locator(`[data-entry-id="${answerId}"]`);
  const treeCountBefore = await treeNodes(page).count();
  // The chat's messages: the recorded system prompt and the two turns.
  const chatCountBefore = await chatMessages(page).count();

  // Hide, from the keyboard: the control is a named button that takes focus.
  const hide = secret.getByRole('button', { name: 'Hide from the model' });
  await hide.focus();
  await page.keyboard.press('Enter');
  await expect(secret).toHaveAttribute('data-context-edit', 'hidden');
  await expect(secret.getByText('Hidden from the model')).toBeVisible();
  await expect(secret.getByText('my password is hunter2')).toHaveCSS(
    'text-decoration-line',
    'line-through',
  );
  const secretNode = page
    .getByRole('region', { name: 'Session tree' })
    .locator(`[data-entry-id="${secretId}"]`);
  await expect(secretNode).toHaveAttribute('data-context-edit', 'hidden');
  await expect(secretNode).toHaveAttribute('aria-label', /hidden from the model/);

  // Replace what the model sees of the answer; the original stays beside it.
  await answer.getByRole('button', { name: 'Replace for the model' }).click();
  const dialog = page.getByRole('dialog', { name: 'Replace for the model' });
  await dialog
    .getByRole('textbox', { name: 'Replacement for the model' })
    .fill('(answer withheld)');
  await dialog.getByRole('button', { name: 'Save replacement' }).click();
  await expect(answer).toHaveAttribute('data-context-edit', 'replaced');
  await expect(answer.getByText('The model sees instead:')).toBeVisible();
  await expect(answer.getByText('(answer withheld)')).toBeVisible();
  await expect(answer.getByText('You said: "what next"')).toBeVisible();
  const answerNode = page
    .getByRole('region', { name: 'Session tree' })
    .locator(`[data-entry-id="${answerId}"]`);
  await expect(answerNode).toHaveAttribute('data-context-edit', 'replaced');

  // No branch: the chat holds the same messages, and the edits are nodes at the leaf.
  await expect(chatMessages(page)).toHaveCount(chatCountBefore);
  await expect(treeNodes(page)).toHaveCount(treeCountBefore + 2);
  expect(contextEditLines(arbor.dataDir)).toMatchObject([
    { targetId: secretId, replacement: null },
    { targetId: answerId, replacement: { content: [{ type: 'text', text: '(answer withheld)' }] } },
  ]);

  // The next prompt goes on from the edited context.
  await sendPrompt(page, 'carry on');
  await expect(chatMessages(page, 'assistant').last()).toContainText('You said: "carry on"');
  await expect(secret).toHaveAttribute('data-context-edit', 'hidden');

  // Undo both: a later edit writes each original back.
  await secret.getByRole('button', { name: 'Undo context edit' }).click();
  await expect(secret).not.toHaveAttribute('data-context-edit', /./);
  await expect(secret.getByText('Hidden from the model')).toHaveCount(0);
  await answer.getByRole('button', { name: 'Undo context edit' }).click();
  await expect(answer).not.toHaveAttribute('data-context-edit', /./);
  await expect(answer.getByText('(answer withheld)')).toHaveCount(0);
  // The graph draws only what is in view: show it all.
  await page.getByRole('button', { name: 'Fit all' }).click();
  await expect(secretNode).toHaveCount(1);
  await expect(secretNode).not.toHaveAttribute('data-context-edit', /./);
  await expect(answerNode).not.toHaveAttribute('data-context-edit', /./);
  await expect(secret.getByRole('button', { name: 'Undo context edit' })).toHaveCount(0);
  expect(contextEditLines(arbor.dataDir).slice(2)).toMatchObject([
    {
      targetId: secretId,
      replacement: { content: [{ type: 'text', text: 'my password is hunter2' }] },
    },
    {
      targetId: answerId,
      replacement: { content: [{ type: 'text', text: 'You said: "what next"' }] },
    },
  ]);
});
