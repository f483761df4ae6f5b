import fs from 'node:fs';
import path from 'node:path';
import { test as base, expect } from '@playwright/test';
import { makeTempDirs, type ArborServer } from './support/arbor-server.js';
import { serveDuring, watchContext } from './support/fixtures.js';
import {
  chatMessages,
  compact,
  conversation,
  openArbor,
  sendPrompt,
  treeNode,
  waitIdle,
} from './support/page-helpers.js';

/*
 * What the model sees after a compaction (decision 076): the messages it summarised are marked
 * "only in history" in the chat and the graph, the kept ones are not, and the context meter has a
 * figure at once instead of "?".
 */

const test = base.extend<{ arbor: ArborServer }>({
  // eslint-disable-next-line no-empty-pattern
  arbor: async ({}, use, testInfo) => {
    const dirs = makeTempDirs();
    // Keep only the newest turn verbatim, so a compaction of a short chat summarises something.
    fs.writeFileSync(
      path.join(dirs.dataDir, 'config.json'),
      JSON.stringify({ compaction: { keepRecentTokens: 40 } }),
    );
    await serveDuring(testInfo, dirs, use);
  },
});

const HISTORY_ONLY = 'Only in history: not sent to the model';

test('after a compaction the summarised messages are marked outside the context, the kept ones not, and the meter has a figure', async ({
  page,
  context,
  arbor,
}) => {
  const errors: string[] = [];
  watchContext(context, errors);
  await openArbor(page, arbor.url);
  await sendPrompt(page, 'plan the garden');
  await sendPrompt(page, 'add tomatoes');
  await sendPrompt(page, 'and basil');
  const meter = page.locator('.context-meter');
  await expect(conversation(page).getByRole('group', { name: HISTORY_ONLY })).toHaveCount(0);
  await expect(treeNode(page, 'user', 'plan the garden')).not.toHaveAttribute(
    'data-history-only',
    'true',
  );

  await compact(page);
  await expect(chatMessages(page, 'compactionSummary')).toHaveCount(1);
  await waitIdle(page);

  // The chat: what was summarised is dimmed in a group, a divider says where the context begins.
  const summarised = conversation(page).getByRole('group', { name: HISTORY_ONLY });
  await expect(summarised.first()).toContainText('plan the garden');
  await expect(
    conversation(page).getByRole('separator', {
      name: 'Above: summarised by compaction — not sent to the model',
    }),
  ).toHaveCount(1);
  const kept = chatMessages(page, 'user').filter({ hasText: 'and basil' });
  await expect(kept).toHaveCount(1);
  await expect(summarised.filter({ hasText: 'and basil' })).toHaveCount(0);
  await expect(summarised.filter({ hasText: 'compacted' })).toHaveCount(0);

  // The graph: the same entries are dimmed and say why; kept ones and the compaction are not.
  const first = treeNode(page, 'user', 'plan the garden');
  await expect(first).toHaveAttribute('data-history-only', 'true');
  await expect(first).toHaveAttribute(
    'aria-label',
    /summarised by compaction, not sent to the model/,
  );
  await expect(treeNode(page, 'user', 'and basil')).not.toHaveAttribute(
    'data-history-only',
    'true',
  );
  await expect(
    page.getByRole('region', { name: 'Session tree' }).locator('[data-role="compaction"]'),
  ).not.toHaveAttribute('data-history-only', 'true');

  // The meter has a figure at once (an estimate), and a legend says what the dimming means.
  await expect(meter).not.toContainText('?');
  await expect(meter).toContainText(/~[\d.]+k? \/ [\d.]+k tokens/);
  await expect(page.locator('.context-legend')).toContainText('summarised, not sent to the model');

  // The next answer reports its usage: the figure is no longer an estimate.
  await sendPrompt(page, 'what next?');
  await expect(meter).toContainText(/^[^~]*[\d.]+k? \/ [\d.]+k tokens/);
  await expect(summarised.first()).toContainText('plan the garden');
  expect(errors).toEqual([]);
});
