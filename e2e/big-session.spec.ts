import fs from 'node:fs';
import { test, expect } from './support/fixtures.js';
import { editor, leafNode, sessionTree } from './support/page-helpers.js';
import { generateSession } from '../bench/ui/generate-session.js';

test('a big session: only nodes near the view are in the document, and keys and clicks work over the whole graph', async ({
  page,
  arbor,
}) => {
  const session = generateSession(arbor.dataDir, fs.realpathSync(arbor.workspace), 4000);
  await page.goto(`${arbor.url}/?session=${session.sessionId}`);
  await expect(leafNode(page)).toHaveAttribute('data-entry-id', session.leafId);

  // Thousands of nodes in the graph, a few dozen of them in the document.
  const drawn = Number((await page.getByText(/^\d+ nodes$/).innerText()).split(' ')[0]);
  expect(drawn).toBeGreaterThan(2000);
  expect(await sessionTree(page).locator('.react-flow__node').count()).toBeLessThan(300);

  // Keys walk the whole graph model: far up the path (the window follows), then home to the leaf.
  await leafNode(page).focus();
  for (let i = 0; i < 40; i++) await page.keyboard.press('ArrowUp');
  const focused = page.locator(':focus');
  await expect(focused).toHaveAttribute('data-entry-id', /./);
  await expect(focused).not.toHaveAttribute('aria-current', 'true');
  await expect(focused).toBeInViewport();
  await page.keyboard.press('Home');
  await expect(leafNode(page)).toBeFocused();

  // A click on the newest prompt: the leaf moves to its parent and its text fills the editor.
  const prompt = session.recentPrompts.at(-1)!;
  await sessionTree(page).locator(`[data-entry-id="${prompt.id}"]`).click();
  await expect(editor(page)).toHaveValue(prompt.text);
  await expect(leafNode(page)).toHaveAttribute('data-entry-id', prompt.parentId);
});
