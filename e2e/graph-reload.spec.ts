import { test, expect } from './support/fixtures.js';
import type { Page } from '@playwright/test';
import {
  DEMO_MODEL,
  editor,
  GPT_4O,
  leafNode,
  openArbor,
  pickModel,
  sendPrompt,
  treeNode,
  waitGraphSettled,
} from './support/page-helpers.js';

/** The number of nodes the graph draws, as its toolbar says. */
async function nodeCount(page: Page): Promise<number> {
  const text = (await page.locator('.tree-count').textContent()) ?? '';
  const count = Number(/(\d+) nodes/.exec(text)?.[1]);
  if (!Number.isFinite(count)) throw new Error(`no node count in "${text}"`);
  return count;
}

test('the graph grown during a live conversation is the graph a reload draws', async ({
  page,
  arbor,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openArbor(page, arbor.url);
  await sendPrompt(page, 'look around\n/tool ls {"path":"."}');
  await sendPrompt(page, 'look again\n/tool ls {"path":"."}\n/tool ls {"path":"."}');
  await pickModel(page, GPT_4O);
  await pickModel(page, DEMO_MODEL);
  await sendPrompt(page, 'third\n/tool ls {"path":"."}');
  // Branch from the second prompt: its turn, tools and all, leaves the active path. (Nodes outside
  // the view are not in the document: show the whole graph first.)
  await page.getByRole('button', { name: 'Fit all' }).click();
  await waitGraphSettled(page);
  await treeNode(page, 'user', 'look again').click();
  await expect(editor(page)).toHaveValue(/look again/);
  await expect(leafNode(page)).toHaveAttribute('data-role', 'assistant');
  await sendPrompt(page, 'another way');
  await sendPrompt(page, 'and on\n/tool ls {"path":"."}');
  const leaf = await leafNode(page).getAttribute('data-entry-id');
  const live = await nodeCount(page);

  await page.reload();
  await expect(editor(page)).toBeEnabled();
  await expect(leafNode(page)).toHaveAttribute('data-entry-id', leaf!);
  await waitGraphSettled(page);
  expect(await nodeCount(page)).toBe(live);
});
