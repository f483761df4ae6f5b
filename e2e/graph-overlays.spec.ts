import { test, expect } from './support/fixtures.js';
import type { Locator, Page } from '@playwright/test';
import {
  leafNode,
  openArbor,
  sendPrompt,
  sessionTree,
  waitGraphSettled,
} from './support/page-helpers.js';

type Box = { x: number; y: number; width: number; height: number };

function overlap(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not on screen');
  return box;
}

/** What covers the leaf, if anything: the overlays it meets, or "outside" when it leaves the pane. */
async function whatCoversTheLeaf(page: Page): Promise<string[]> {
  const tree = sessionTree(page);
  if ((await leafNode(page).count()) === 0) return ['not drawn'];
  const leaf = await boxOf(leafNode(page));
  const pane = await boxOf(tree.locator('.react-flow'));
  const covered: string[] = [];
  if (
    leaf.x < pane.x ||
    leaf.y < pane.y ||
    leaf.x + leaf.width > pane.x + pane.width ||
    leaf.y + leaf.height > pane.y + pane.height
  )
    covered.push('outside the pane');
  const overlays: [string, Locator][] = [
    ['minimap', tree.locator('.react-flow__minimap')],
    ['controls', tree.locator('.react-flow__controls')],
    ['toolbar', tree.locator('.tree-toolbar')],
  ];
  for (const [name, overlay] of overlays)
    if ((await overlay.count()) > 0 && overlap(leaf, await boxOf(overlay))) covered.push(name);
  return covered;
}

for (const size of [
  { width: 1440, height: 900 },
  { width: 1000, height: 640 },
]) {
  test(`after each answer the leaf stays clear of the minimap, controls and toolbar at ${size.width}×${size.height}`, async ({
    page,
    arbor,
  }) => {
    await page.setViewportSize(size);
    await openArbor(page, arbor.url);
    await expect(sessionTree(page).locator('.react-flow__minimap')).toBeVisible();
    for (let i = 1; i <= 8; i++) {
      await sendPrompt(page, `answer ${i}`);
      await expect(leafNode(page)).toHaveAttribute('aria-label', new RegExp(`answer ${i}`));
      await expect.poll(() => whatCoversTheLeaf(page)).toEqual([]);
    }
  });
}

test('"Fit all" shows every node clear of the minimap and the controls', async ({
  page,
  arbor,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openArbor(page, arbor.url);
  for (let i = 1; i <= 3; i++) await sendPrompt(page, `answer ${i}`);
  // A branch from the second prompt widens the graph, as in the README's screenshot.
  await sessionTree(page).locator('[data-entry-id][data-role="user"]').nth(1).click();
  await waitGraphSettled(page);
  for (let i = 4; i <= 8; i++) await sendPrompt(page, `answer ${i}`);
  await sessionTree(page).getByRole('button', { name: 'Fit all' }).click();
  const tree = sessionTree(page);
  const covered = async (): Promise<number> => {
    const overlays = [
      await boxOf(tree.locator('.react-flow__minimap')),
      await boxOf(tree.locator('.react-flow__controls')),
    ];
    let count = 0;
    for (const node of await tree.locator('[data-entry-id]').all()) {
      const box = await node.boundingBox();
      if (box && overlays.some((overlay) => overlap(box, overlay))) count++;
    }
    return count;
  };
  await expect.poll(covered).toBe(0);
});
