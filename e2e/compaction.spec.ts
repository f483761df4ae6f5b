import { test, expect } from './support/fixtures.js';
import {
  chatMessages,
  openArbor,
  sendPrompt,
  treeNodes,
  waitIdle,
} from './support/page-helpers.js';

test('a manual compaction shows as a summary in the chat and a node in the graph', async ({
  page,
  arbor,
}) => {
  await openArbor(page, arbor.url);
  // Nothing to compact before the first prompt: the button is off (it once failed twice over).
  await expect(page.getByRole('button', { name: 'Compact' })).toBeDisabled();
  await sendPrompt(page, 'plan the garden');
  await expect(page.getByRole('button', { name: 'Compact' })).toBeEnabled();
  await sendPrompt(page, 'add tomatoes');
  await sendPrompt(page, 'and basil');

  await page.getByRole('button', { name: 'Compact' }).click();
  const summary = chatMessages(page, 'compactionSummary');
  await expect(summary).toHaveCount(1);
  await expect(summary).toContainText('compacted');
  await summary.locator('summary').click();
  await expect(summary).toContainText('Goal');
  await expect(treeNodes(page, 'compaction')).toHaveCount(1);
  await waitIdle(page);

  // The conversation goes on after the compaction.
  await sendPrompt(page, 'what next?');
  await expect(chatMessages(page, 'assistant').last()).toContainText('what next?');
});

test('compaction with instructions', async ({ page, arbor }) => {
  await openArbor(page, arbor.url);
  await sendPrompt(page, 'remember the colour blue');
  await sendPrompt(page, 'and green');
  await page
    .getByRole('textbox', { name: 'Compaction focus (optional)' })
    .fill('Keep the colours.');
  await page.getByRole('button', { name: 'Compact' }).click();
  await expect(chatMessages(page, 'compactionSummary')).toHaveCount(1);
});
