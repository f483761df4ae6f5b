import { test, expect } from './support/fixtures.js';
import type { Page } from '@playwright/test';
import {
  chatMessages,
  leafNode,
  openArbor,
  sendPrompt,
  sessionTree,
} from './support/page-helpers.js';

/** True when the leaf node is drawn inside the visible part of the graph. */
async function leafInSight(page: Page): Promise<boolean> {
  const canvas = await sessionTree(page).locator('.react-flow').boundingBox();
  // Nodes outside the view are not in the document at all.
  if ((await leafNode(page).count()) === 0 || !canvas) return false;
  const leaf = await leafNode(page).boundingBox();
  return (
    leaf !== null &&
    leaf.y >= canvas.y &&
    leaf.y + leaf.height <= canvas.y + canvas.height &&
    leaf.x >= canvas.x &&
    leaf.x + leaf.width <= canvas.x + canvas.width
  );
}

test('the graph keeps the leaf in view as answers arrive, and leaves a view the user panned alone', async ({
  page,
  arbor,
}) => {
  await page.setViewportSize({ width: 1280, height: 560 });
  await openArbor(page, arbor.url);
  for (let i = 1; i <= 6; i++) {
    await sendPrompt(page, `step ${i}`);
    await expect(leafNode(page)).toHaveAttribute('aria-label', new RegExp(`step ${i}`));
    await expect.poll(() => leafInSight(page)).toBe(true);
  }

  // The user drags the graph down until the leaf is out of sight: the next answer keeps it so.
  const pane = sessionTree(page).locator('.react-flow__pane');
  const box = (await pane.boundingBox())!;
  await page.mouse.move(box.x + 8, box.y + 8);
  await page.mouse.down();
  await page.mouse.move(box.x + 8, box.y + box.height - 8, { steps: 10 });
  await page.mouse.up();
  await expect.poll(() => leafInSight(page)).toBe(false);
  await sendPrompt(page, 'step 7');
  await expect(chatMessages(page, 'assistant').last()).toContainText('step 7');
  // Give a follow that should not happen the time it would take.
  await page.waitForTimeout(500);
  expect(await leafInSight(page)).toBe(false);
});
