import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writePiSessionFile } from '../server/store/test-support/pi-session-file.js';
import { test, expect } from './support/fixtures.js';
import { chatMessages, openArbor } from './support/page-helpers.js';

test('a pi session file is imported from the sidebar and opens; a broken one is refused with its line', async ({
  page,
  arbor,
  consoleErrors,
}) => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-import-'));
  try {
    const { file } = writePiSessionFile(folder, '/elsewhere/project', [
      { role: 'user', text: 'a question asked in pi' },
      { role: 'assistant', text: 'an answer pi saved' },
    ]);
    await openArbor(page, arbor.url);
    const sidebar = page.getByRole('navigation', { name: 'Sessions' });

    const chooser = page.waitForEvent('filechooser');
    await sidebar.getByRole('button', { name: 'Import session' }).click();
    await (await chooser).setFiles(file);
    await expect(chatMessages(page, 'assistant')).toHaveText([/an answer pi saved/]);
    await expect(
      sidebar.getByRole('button', { name: /^a question asked in pi/ }).first(),
    ).toBeVisible();
    await expect(page.getByRole('alert')).toContainText('Imported');

    // A file with a broken line: nothing is made, and the notice names the line.
    const broken = path.join(folder, 'broken.jsonl');
    const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
    fs.writeFileSync(broken, [...lines.slice(0, 2), '{"type": "message", oops', ''].join('\n'));
    const again = page.waitForEvent('filechooser');
    await sidebar.getByRole('button', { name: 'Import session' }).click();
    await (await again).setFiles(broken);
    await expect(page.getByRole('alert')).toContainText(
      /Could not import “broken\.jsonl”: .*line 3/,
    );
    // The browser logs the refusal (400) itself; it is the point here, not a page fault.
    const refused = consoleErrors.filter((line) => line.includes('400 (Bad Request)'));
    expect(refused).toHaveLength(1);
    consoleErrors.splice(
      0,
      consoleErrors.length,
      ...consoleErrors.filter((l) => !refused.includes(l)),
    );
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});
