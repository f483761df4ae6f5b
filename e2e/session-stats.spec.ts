import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from './support/fixtures.js';
import { openArbor, sendPrompt } from './support/page-helpers.js';

/*
 * A person opens the session's statistics from the keyboard after one prompt: the dialog shows
 * the tokens the model reported for its answers (summed here straight from the session file, not
 * from Arbor's own rule), for the whole session and for this branch, and Escape closes it with the
 * focus back on the button.
 */

interface Totals {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

function reportedUsage(dataDir: string): Totals {
  const dir = path.join(dataDir, 'sessions');
  const files = fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .filter((name) => name.endsWith('.jsonl'));
  const sum: Totals = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  for (const name of files)
    for (const line of fs.readFileSync(path.join(dir, name), 'utf8').trimEnd().split('\n')) {
      const entry = JSON.parse(line) as {
        type: string;
        message?: { role: string; usage?: Totals };
      };
      const usage = entry.type === 'message' && entry.message?.role === 'assistant';
      if (!usage || !entry.message?.usage) continue;
      for (const key of Object.keys(sum) as (keyof Totals)[]) sum[key] += entry.message.usage[key];
    }
  return sum;
}

const grouped = (value: number) => value.toLocaleString('en-US');

test('the statistics dialog shows the tokens the model reported, and Escape returns focus', async ({
  page,
  arbor,
}) => {
  await openArbor(page, arbor.url);
  await sendPrompt(page, 'count my tokens please');
  const usage = reportedUsage(arbor.dataDir);
  expect(usage.input).toBeGreaterThan(0);
  expect(usage.output).toBeGreaterThan(0);

  const button = page.getByRole('button', { name: 'Statistics' });
  await button.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Session statistics' });
  await expect(dialog).toBeVisible();

  for (const caption of ['Whole session', 'This branch']) {
    const table = dialog.getByRole('table', { name: caption });
    await expect(table.getByRole('columnheader', { name: 'Input (tokens)' })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: 'Cost (USD)' })).toBeVisible();
    const totals = table.getByRole('row', { name: /^All models/ });
    await expect(totals.locator('[data-stat="input"]')).toHaveText(grouped(usage.input));
    await expect(totals.locator('[data-stat="output"]')).toHaveText(grouped(usage.output));
    await expect(totals.locator('[data-stat="cacheRead"]')).toHaveText(grouped(usage.cacheRead));
    await expect(totals.locator('[data-stat="cacheWrite"]')).toHaveText(grouped(usage.cacheWrite));
    const total = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
    await expect(totals.locator('[data-stat="total"]')).toHaveText(grouped(total));
    // One user prompt and one answer, and the model's own row.
    await expect(table.getByRole('row', { name: /^Messages/ })).toContainText('1 user');
    await expect(table.getByRole('row', { name: /^Messages/ })).toContainText('1 assistant');
    await expect(table.locator('tbody tr')).toHaveCount(1);
  }

  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(button).toBeFocused();
});
