import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect } from './support/fixtures.js';
import { openArbor, sendPrompt, sessionTree } from './support/page-helpers.js';

const background = (page: Page) =>
  page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
const DARK_BG = 'rgb(21, 22, 26)';
const LIGHT_BG = 'rgb(247, 247, 245)';

/** Text that fails WCAG AA contrast on the page as it stands, as axe-core finds it. */
async function contrastFailures(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withRules(['color-contrast']).analyze();
  return result.violations.flatMap((violation) =>
    violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary ?? ''}`),
  );
}

test('the page follows the system theme, a chosen one is remembered, and text meets AA in both', async ({
  page,
  arbor,
}) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await openArbor(page, arbor.url);
  await sendPrompt(page, 'hello in the dark\n/tool ls {"path":"."}');
  const theme = page.getByRole('combobox', { name: 'Theme' });
  await expect(theme).toHaveValue('system');
  expect(await background(page)).toBe(DARK_BG);
  // The graph follows too.
  await expect(sessionTree(page).locator('.react-flow')).toHaveClass(/\bdark\b/);
  expect(await contrastFailures(page)).toEqual([]);

  // A choice overrides the system, and stays after a reload.
  await theme.selectOption('light');
  expect(await background(page)).toBe(LIGHT_BG);
  await expect(sessionTree(page).locator('.react-flow')).not.toHaveClass(/\bdark\b/);
  expect(await contrastFailures(page)).toEqual([]);
  await page.reload();
  await expect(theme).toHaveValue('light');
  expect(await background(page)).toBe(LIGHT_BG);

  // Back to the system's, which follows it as it changes.
  await theme.selectOption('system');
  expect(await background(page)).toBe(DARK_BG);
  await page.emulateMedia({ colorScheme: 'light' });
  await expect.poll(() => background(page)).toBe(LIGHT_BG);
  await expect(sessionTree(page).locator('.react-flow')).not.toHaveClass(/\bdark\b/);
});
