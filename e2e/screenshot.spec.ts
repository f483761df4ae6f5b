import path from 'node:path';
import { test, expect } from './support/fixtures.js';
import { editor, openArbor, sendPrompt, treeNode, treeNodes } from './support/page-helpers.js';

test('README screenshot: a session with a branch', async ({ page, arbor }) => {
  await page.setViewportSize({ width: 1440, height: 860 });
  await openArbor(page, arbor.url);
  await sendPrompt(page, 'Sketch a plan for a small vegetable garden');
  await sendPrompt(page, '/tool ls {"path":"."}');
  await sendPrompt(page, 'Which plants grow well together?');
  await treeNode(page, 'user', 'Which plants').click();
  await expect(editor(page)).toHaveValue('Which plants grow well together?');
  await editor(page).fill('Which herbs grow well next to tomatoes?');
  await editor(page).press('Enter');
  await expect(treeNodes(page, 'user')).toHaveCount(4);
  await sendPrompt(page, 'Summarise the plan as a table');
  await page.getByRole('button', { name: 'Fit all' }).click();
  await page.waitForTimeout(400);
  await page.screenshot({
    path: path.resolve(import.meta.dirname, '..', 'docs', 'screenshot.png'),
  });
});
