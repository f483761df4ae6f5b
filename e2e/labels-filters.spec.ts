import { test, expect } from './support/fixtures.js';
import {
  leafNode,
  nodeMenu,
  openArbor,
  sendPrompt,
  treeNode,
  treeNodes,
} from './support/page-helpers.js';

test('labels are set and cleared from the graph, and filters narrow it', async ({
  page,
  arbor,
}) => {
  await openArbor(page, arbor.url);
  await sendPrompt(page, 'first');
  await sendPrompt(page, '/tool ls {"path":"."}');
  await sendPrompt(page, 'third');

  await page.getByRole('button', { name: 'Fit all' }).click();
  const target = treeNode(page, 'user', 'first');
  await (await nodeMenu(target)).getByRole('menuitem', { name: 'Label…' }).click();
  await page.getByRole('textbox', { name: 'Label text' }).fill('start here');
  await page.getByRole('button', { name: 'Save label' }).click();
  await expect(page.locator('.node-label')).toHaveText(['start here']);

  const filter = page.getByRole('combobox', { name: 'Filter' });
  // The graph draws only what is in view: show everything before counting.
  const fitAll = async () => {
    // Twice: the first fit may start before the filtered graph reached React Flow's store.
    await page.getByRole('button', { name: 'Fit all' }).click();
    await page.waitForTimeout(300);
    await page.getByRole('button', { name: 'Fit all' }).click();
    await page.waitForTimeout(300);
  };
  await filter.selectOption('labelled');
  await fitAll();
  await expect(treeNodes(page)).toHaveCount(2); // the labelled entry and the leaf
  await expect(treeNode(page, 'user', 'first')).toHaveCount(1);
  await expect(leafNode(page)).toHaveCount(1);

  await filter.selectOption('user-only');
  await fitAll();
  await expect(treeNodes(page, 'user')).toHaveCount(3);
  await expect(treeNodes(page, 'toolResult')).toHaveCount(0);
  await expect(treeNodes(page)).toHaveCount(4); // three prompts and the leaf

  await filter.selectOption('no-tools');
  await fitAll();
  await expect(treeNodes(page, 'toolResult')).toHaveCount(0);
  await expect(treeNodes(page, 'user')).toHaveCount(3);

  await filter.selectOption('all');
  await fitAll();
  await expect(treeNodes(page, 'toolResult')).toHaveCount(1);

  await (
    await nodeMenu(treeNode(page, 'user', 'first'))
  )
    .getByRole('menuitem', { name: 'Label…' })
    .click();
  await page.getByRole('button', { name: 'Clear label' }).click();
  await expect(page.locator('.node-label')).toHaveCount(0);
});

test('fit to leaf and the minimap are there', async ({ page, arbor }) => {
  await openArbor(page, arbor.url);
  await sendPrompt(page, 'one');
  await page.getByRole('button', { name: 'Fit to leaf' }).click();
  await expect(leafNode(page)).toBeInViewport();
  await expect(page.locator('.react-flow__minimap')).toBeVisible();
});

test('Tab and Shift+Tab stay inside a dialog', async ({ page, arbor }) => {
  await openArbor(page, arbor.url);
  await sendPrompt(page, 'first');
  await page.getByRole('button', { name: 'Fit all' }).click();
  // L on a focused node opens it too.
  await treeNode(page, 'user', 'first').focus();
  await page.keyboard.press('l');
  const dialog = page.getByRole('dialog', { name: 'Label' });
  const text = dialog.getByRole('textbox', { name: 'Label text' });
  await expect(text).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Save label' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(text).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});
