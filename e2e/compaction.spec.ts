import { test, expect } from './support/fixtures.js';
import {
  chatMessages,
  compact,
  openArbor,
  sendPrompt,
  sessionMenuItem,
  treeNodes,
  waitIdle,
} from './support/page-helpers.js';

test('a manual compaction shows as a summary in the chat and a node in the graph', async ({
  page,
  arbor,
}) => {
  await openArbor(page, arbor.url);
  // Nothing to compact before the first prompt: the item is off (it once failed twice over).
  await expect(await sessionMenuItem(page, 'Compact…')).toBeDisabled();
  await page.keyboard.press('Escape');
  await sendPrompt(page, 'plan the garden');
  await expect(await sessionMenuItem(page, 'Compact…')).toBeEnabled();
  await page.keyboard.press('Escape');
  await sendPrompt(page, 'add tomatoes');
  await sendPrompt(page, 'and basil');

  await compact(page);
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
  await compact(page, 'Keep the colours.');
  await expect(chatMessages(page, 'compactionSummary')).toHaveCount(1);
});
