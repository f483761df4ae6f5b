import path from 'node:path';
import { test, expect } from './support/fixtures.js';
import { gardenWithBranch, openArbor, sendPrompt } from './support/page-helpers.js';

/*
 * The README's picture. `npm test` writes it under test-results/ and leaves the tracked
 * docs/screenshot.png alone; `ARBOR_UPDATE_SCREENSHOT=1 npx playwright test screenshot` renews it.
 */
const screenshotPath = process.env.ARBOR_UPDATE_SCREENSHOT
  ? path.resolve(import.meta.dirname, '..', 'docs', 'screenshot.png')
  : path.resolve(import.meta.dirname, '..', 'test-results', 'screenshot.png');

test('README screenshot: a session with a branch', async ({ page, arbor }) => {
  await page.setViewportSize({ width: 1440, height: 860 });
  await openArbor(page, arbor.url);
  await gardenWithBranch(page);
  await sendPrompt(page, 'Summarise the plan as a table');
  await page.getByRole('button', { name: 'Fit all' }).click();
  await page.waitForTimeout(400);
  const picture = await page.screenshot({ path: screenshotPath });
  expect(picture.length).toBeGreaterThan(10_000);
});
