import { AxeBuilder } from '@axe-core/playwright';
import fs from 'node:fs';
import path from 'node:path';
import { expect, logIn, teamTest } from './support/fixtures.js';
import { editor } from './support/page-helpers.js';

const test = teamTest('admin', 'member');

test("an admin saves a provider's key and chooses the models in use from the page; a member has no settings", async ({
  browser,
  team,
}) => {
  const member = await logIn(browser, team.server.url, team.member);
  await expect(editor(member)).toBeEnabled();
  await expect(member.getByRole('button', { name: 'Settings' })).toHaveCount(0);

  const page = await logIn(browser, team.server.url, team.admin);
  await expect(editor(page)).toBeEnabled();
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await expect(dialog).toBeVisible();
  const axe = await new AxeBuilder({ page }).include('.modal').analyze();
  expect(axe.violations.filter((v) => ['serious', 'critical'].includes(v.impact ?? ''))).toEqual(
    [],
  );

  // A key: typed once, never shown again, saved where pi reads it.
  await dialog.getByRole('searchbox', { name: 'Find a provider' }).fill('mistral');
  const row = dialog.locator('tr[data-provider="mistral"]');
  await expect(row).toContainText('No key');
  await row.getByRole('button', { name: 'Set key for mistral' }).click();
  await row.getByRole('textbox', { name: 'API key for mistral' }).fill('mk-team-secret');
  await row.getByRole('button', { name: 'Save' }).click();
  await expect(row).toContainText('Key saved here');
  await expect(dialog).not.toContainText('mk-team-secret');
  const auth = JSON.parse(fs.readFileSync(path.join(team.server.dataDir, 'auth.json'), 'utf8'));
  expect(auth.mistral).toEqual({ type: 'api_key', key: 'mk-team-secret' });
  await row.getByRole('button', { name: 'Remove key for mistral' }).click();
  await expect(row).toContainText('No key');

  // The models in use: a typo is refused with its text, nothing saved; then two models.
  await dialog.getByRole('radio', { name: /Only these/ }).check();
  const patterns = dialog.getByRole('textbox', { name: 'Model patterns, one per line' });
  await patterns.fill('arbor/arbor-demo\nclaude-sonet-9*');
  await dialog.getByRole('button', { name: 'Save models in use' }).click();
  await expect(dialog.getByRole('alert')).toContainText('No model matches "claude-sonet-9*"');
  await patterns.fill('arbor/arbor-demo\nanthropic/claude-sonnet-4-5');
  await dialog.getByRole('button', { name: 'Save models in use' }).click();
  await expect(dialog.getByRole('status').last()).toHaveText('Saved: 2 models in use.');
  await dialog.getByRole('radio', { name: 'Every model' }).check();
  await dialog.getByRole('button', { name: 'Save models in use' }).click();
  await expect(dialog.getByRole('status').last()).toHaveText(/Saved: \d{3,} models in use\./);

  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await page.context().close();
  await member.context().close();
});
