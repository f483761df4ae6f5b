import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect } from './support/fixtures.js';
import { chatMessages, editor, openArbor, sendPrompt } from './support/page-helpers.js';

/** Opens the palette with its shortcut, types `text` and waits for `option` to be offered. */
async function paletteFind(page: Page, text: string, option: string | RegExp) {
  await page.keyboard.press('Control+k');
  const dialog = page.getByRole('dialog', { name: 'Command palette' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Search commands').fill(text);
  const item = dialog.getByRole('menuitem', { name: option });
  await expect(item).toBeVisible();
  return { dialog, item };
}

test('the command palette switches theme and session, starts one, and jumps to a message, all from the keyboard', async ({
  page,
  arbor,
}) => {
  await openArbor(page, arbor.url);
  await expect(page.getByRole('button', { name: /Commands/ })).toHaveAttribute(
    'aria-keyshortcuts',
    'Control+K Meta+K',
  );
  await sendPrompt(page, 'the otter swims upstream');
  await sendPrompt(page, 'and the heron waits');
  const first = page.url();

  // An action: the theme, shared with the theme select.
  const { dialog } = await paletteFind(page, 'dark', 'Theme: dark');
  const axe = await new AxeBuilder({ page }).include('.palette').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`)).toEqual([]);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page.getByRole('combobox', { name: 'Theme' })).toHaveValue('dark');

  // A new session, then back to the first by its words.
  await paletteFind(page, 'new sess', 'New session');
  await page.keyboard.press('Enter');
  await expect.poll(() => page.url()).not.toBe(first);
  await expect(chatMessages(page)).toHaveCount(0);
  await paletteFind(page, 'otter', /the otter swims upstream/);
  await page.keyboard.press('Enter');
  await expect.poll(() => page.url()).toBe(first);
  await expect(chatMessages(page, 'user')).toHaveCount(2);

  // A message of the open session, by a word of it: the chat shows it, marked.
  await paletteFind(page, 'heron prompt', /^and the heron waits/);
  await page.keyboard.press('Enter');
  await expect(chatMessages(page, 'user').filter({ hasText: 'heron' })).toHaveAttribute(
    'data-revealed',
    'true',
  );

  // Escape closes it without running anything; focus goes back where it was.
  await editor(page).focus();
  await paletteFind(page, 'light', 'Theme: light');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Command palette' })).toBeHidden();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(editor(page)).toBeFocused();
});
