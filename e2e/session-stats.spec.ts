import { test, expect } from './support/fixtures.js';
import {
  entryIdOf,
  leafNode,
  openArbor,
  readThisBranch,
  sendPrompt,
  sendTwoBranches,
  sessionAction,
  showWholeTree,
  treeNode,
} from './support/page-helpers.js';
import { sessionFileLines } from './support/pi-session-file.js';

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

interface Line {
  type: string;
  id?: string;
  parentId?: string | null;
  message?: { role: string; usage?: Totals };
}

/** The usage the model reported on its answers among `lines`. */
function reportedUsage(lines: Line[]): Totals {
  const sum: Totals = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  for (const entry of lines) {
    const usage = entry.type === 'message' && entry.message?.role === 'assistant';
    if (!usage || !entry.message?.usage) continue;
    for (const key of Object.keys(sum) as (keyof Totals)[]) sum[key] += entry.message.usage[key];
  }
  return sum;
}

/** The lines from the root to `entryId`, by parent links. */
function pathTo(lines: Line[], entryId: string): Line[] {
  const byId = new Map(lines.filter((l) => l.id).map((l) => [l.id, l]));
  const path: Line[] = [];
  for (let at = byId.get(entryId); at; at = at.parentId ? byId.get(at.parentId) : undefined)
    path.push(at);
  return path;
}

const grouped = (value: number) => value.toLocaleString('en-US');

test('the statistics dialog shows the tokens the model reported, and Escape returns focus', async ({
  page,
  arbor,
}) => {
  await openArbor(page, arbor.url);
  await sendPrompt(page, 'count my tokens please');
  const usage = reportedUsage(sessionFileLines<Line>(arbor.dataDir));
  expect(usage.input).toBeGreaterThan(0);
  expect(usage.output).toBeGreaterThan(0);

  // By keyboard: the menu opens and its item is chosen with Enter.
  const button = page.getByRole('button', { name: 'Session actions' });
  await button.focus();
  await page.keyboard.press('Enter');
  await page.getByRole('menuitem', { name: 'Statistics' }).focus();
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
    await expect(table.getByRole('row', { name: /^Messages/ })).toContainText('user 1,');
    await expect(table.getByRole('row', { name: /^Messages/ })).toContainText('assistant 1,');
    await expect(table.locator('tbody tr')).toHaveCount(1);
  }

  // Tab stays within the dialog, both ways.
  const figures = dialog.getByRole('region', { name: 'Statistics figures' });
  await expect(figures).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(figures).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();

  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(button).toBeFocused();
});

test('while another branch is read, the branch table counts that branch, not the leaf', async ({
  page,
  arbor,
}) => {
  await openArbor(page, arbor.url);
  const readAnswer = await sendTwoBranches(
    page,
    'apples',
    'bananas are long and yellow',
    'cherries',
  );
  await showWholeTree(page);
  await readThisBranch(treeNode(page, 'assistant', 'bananas'));
  await expect(page.getByRole('region', { name: 'Reading mode' })).toBeVisible();

  const lines = sessionFileLines<Line>(arbor.dataDir);
  const read = reportedUsage(pathTo(lines, readAnswer));
  const whole = reportedUsage(lines);
  // The two branches' figures differ, so the table shows which one it counted.
  const atLeaf = reportedUsage(pathTo(lines, await entryIdOf(leafNode(page))));
  expect(read.input).not.toBe(atLeaf.input);

  await sessionAction(page, 'Statistics');
  const dialog = page.getByRole('dialog', { name: 'Session statistics' });
  const allModels = (caption: string) =>
    dialog.getByRole('table', { name: caption }).getByRole('row', { name: /^All models/ });
  await expect(allModels('Whole session').locator('[data-stat="input"]')).toHaveText(
    grouped(whole.input),
  );
  await expect(allModels('Branch being read').locator('[data-stat="input"]')).toHaveText(
    grouped(read.input),
  );
  await expect(allModels('Branch being read').locator('[data-stat="output"]')).toHaveText(
    grouped(read.output),
  );
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
});
