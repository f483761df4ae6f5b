import { test, expect } from './support/fixtures.js';
import { chatMessages, openArbor, sendPrompt, treeNodes } from './support/page-helpers.js';

test('a tool call shows its arguments and its result, and the answer quotes the result', async ({
  page,
  arbor,
}) => {
  await openArbor(page, arbor.url);
  await sendPrompt(page, '/tool ls {"path":"."}');

  const calling = chatMessages(page, 'assistant').first();
  await expect(calling).toContainText('Calling 1 tool.');
  const call = calling.locator('details.tool-call');
  // One line: the tool, its main argument, its status and how long it ran.
  await expect(call.locator('summary')).toHaveText(/^ls\s*\.\s*done\s*\d+ ms$/);
  await expect(call).toHaveAttribute('data-status', 'done');
  await call.locator('summary').click();
  await expect(call.locator('.tool-args')).toContainText('"path": "."');

  const result = chatMessages(page, 'toolResult');
  await expect(result).toHaveCount(1);
  await result.locator('summary').click();
  await expect(result.locator('.tool-output')).toContainText('README.md');

  await expect(chatMessages(page, 'assistant').last()).toContainText('Tool results:');
  await expect(treeNodes(page, 'toolResult')).toHaveCount(1);
});
