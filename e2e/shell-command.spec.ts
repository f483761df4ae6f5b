import { test, expect } from './support/fixtures.js';
import { chatMessages, editor, openArbor, sendPrompt } from './support/page-helpers.js';

/*
 * The editor's `!command` as a person meets it: a hint under the editor says where the command
 * runs and whether its output enters the context; sent, the chat shows the shell message.
 */

test('!echo hi runs in the shell and the chat shows its output', async ({ page, arbor }) => {
  await openArbor(page, arbor.url);
  await sendPrompt(page, 'a first prompt');

  await editor(page).fill('!!echo quiet');
  await expect(page.locator('#shell-hint')).toHaveText(
    "Runs in the workspace's shell; not added to the context",
  );
  await editor(page).fill('!echo hi');
  await expect(page.locator('#shell-hint')).toHaveText(
    "Runs in the workspace's shell; the output enters the context",
  );
  await expect(editor(page)).toHaveAccessibleDescription(
    "Runs in the workspace's shell; the output enters the context",
  );
  await editor(page).press('Enter');

  const shell = chatMessages(page, 'bashExecution');
  await expect(shell).toHaveCount(1);
  await expect(shell).toContainText('echo hi');
  await expect(shell).toContainText('hi');
  await expect(editor(page)).toHaveValue('');
  await expect(page.locator('#shell-hint')).toHaveText('');
});
