import { AxeBuilder } from '@axe-core/playwright';
import { test, expect } from './support/fixtures.js';
import {
  editor,
  leafNode,
  nodeMenu,
  openArbor,
  sendPrompt,
  treeNode,
} from './support/page-helpers.js';

test("a node's menu reads, continues, labels and copies, with the keys shown, by mouse or keyboard", async ({
  page,
  context,
  arbor,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openArbor(page, arbor.url);
  await sendPrompt(page, 'the first question, whole and long enough to be cut in the graph node');
  await sendPrompt(page, 'the second question');
  await page.getByRole('button', { name: 'Fit all' }).click();

  // By the mouse: the "⋯" button of a prompt's node.
  const first = treeNode(page, 'user', 'the first question');
  const menu = await nodeMenu(first);
  await expect(menu.getByRole('menuitem')).toHaveText([
    /Read this branch\s*R$/,
    /Edit and run again\s*Enter$/,
    /Label…\s*L$/,
    /Copy text\s*C$/,
  ]);
  const axe = await new AxeBuilder({ page }).include('.node-menu-popover').analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
  await menu.getByRole('menuitem', { name: 'Copy text' }).click();
  await expect(menu).toBeHidden();
  await expect(
    page.getByRole('status').filter({ hasText: 'Copied the node’s text' }),
  ).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    'the first question, whole and long enough to be cut in the graph node',
  );

  // A right-click opens it too; "Edit and run again" is the click rule of a prompt.
  await first.click({ button: 'right' });
  await page
    .getByRole('menu', { name: 'Actions for user node' })
    .getByRole('menuitem', { name: 'Edit and run again' })
    .click();
  await expect(editor(page)).toHaveValue(/^the first question/);

  // By the keyboard: Shift+F10 on a focused answer, down to "Continue from here".
  const answer = treeNode(page, 'assistant', 'the second question');
  await answer.focus();
  await page.keyboard.press('Shift+F10');
  const keyboardMenu = page.getByRole('menu', { name: 'Actions for assistant node' });
  await expect(keyboardMenu.getByRole('menuitem', { name: 'Read this branch' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(keyboardMenu).toBeHidden();
  await expect(leafNode(page)).toHaveAttribute('aria-label', /the second question/);
});
