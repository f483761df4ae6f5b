import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test, expect } from '@playwright/test';
import { writeHostileSession } from '../server/export/test-support/hostile-session.js';

/*
 * `arbor export` of a hostile session, opened in Chromium from the disk with the network blocked:
 * the page shows every message of the path and the whole tree, asks for nothing, and runs no script.
 */

const BIN = path.resolve(import.meta.dirname, '..', 'bin', 'arbor.js');

test('an exported session opens offline, shows the path and the tree, and runs nothing', async ({
  page,
}) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-export-e2e-'));
  try {
    const file = writeHostileSession(dir);
    const out = path.join(dir, 'session.html');
    const result = spawnSync('node', [BIN, 'export', file, out], { encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    const pageUrl = pathToFileURL(out).href;

    const requests: string[] = [];
    const dialogs: string[] = [];
    page.on('request', (request) => {
      if (request.url() !== pageUrl) requests.push(request.url());
    });
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page
      .context()
      .route('**/*', (route) =>
        route.request().url() === pageUrl ? route.continue() : route.abort(),
      );
    await page.goto(pageUrl);

    const chat = page.getByRole('region', { name: 'Active path' });
    await expect(chat.getByRole('article')).toHaveText([
      /^System prompt/,
      /^User.*Hello <script>alert\("user"\)<\/script>/s,
      /^Assistant.*Thinking.*See the docs.*Tool call bash/s,
      /^Tool result: bash<\/pre><script>alert\("tool"\)<\/script>$/,
      /Done on the main branch\./,
    ]);
    await expect(chat.getByRole('img', { name: 'Attached image' })).toHaveCount(1);
    // The docs link lost its javascript: target; a click goes nowhere.
    await chat.getByRole('link', { name: 'the docs' }).click();
    const system = page.getByRole('region', { name: 'System prompt' });
    await expect(system.getByText('Section AGENTS.md')).toBeVisible();
    await expect(system.getByText(/Tool read<img src=x onerror=alert\(1\)>/)).toBeVisible();

    const tree = page.getByRole('navigation', { name: 'Session tree' });
    await expect(tree.getByRole('link')).toHaveCount(7);
    // A node off the path links to its entry, further down the page.
    await tree.getByRole('link', { name: 'user: A prompt on another branch' }).press('Enter');
    await expect(page).toHaveURL(/#e-user0002$/);
    await expect(
      page.getByRole('region', { name: 'Other branches' }).getByRole('article').first(),
    ).toBeInViewport();

    expect(requests).toEqual([]);
    expect(dialogs).toEqual([]);
    expect(await page.evaluate(() => document.scripts.length)).toBe(0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
