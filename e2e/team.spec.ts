import fs from 'node:fs';
import { expect, logIn, submitToken, teamTest } from './support/fixtures.js';
import { chatMessages, editor, sendPrompt } from './support/page-helpers.js';

const test = teamTest('admin', 'viewer');

test('team mode: log in with a token; a viewer sees a session but cannot prompt', async ({
  browser,
  team,
}) => {
  const errors: string[] = [];
  const adminPage = await logIn(browser, team.server.url, 'not-a-token', errors);
  await expect(adminPage.getByRole('alert')).toContainText('not valid');
  await submitToken(adminPage, team.admin);
  await expect(editor(adminPage)).toBeEnabled();
  await sendPrompt(adminPage, 'admin was here');
  const sessionUrl = adminPage.url();

  const viewerPage = await logIn(browser, sessionUrl, team.viewer, errors);
  await expect(chatMessages(viewerPage, 'assistant')).toContainText(['admin was here']);
  // A viewer's page is read-only (e2e/viewer.spec.ts): no editor, no controls to act with.
  await expect(viewerPage.getByRole('note')).toHaveText(/You can read this workspace/);
  await expect(editor(viewerPage)).toHaveCount(0);
  await expect(viewerPage.getByRole('button', { name: 'Send' })).toHaveCount(0);

  await adminPage.context().close();
  await viewerPage.context().close();
  // Login failures answer 401, which the browser reports on its own console: that one is expected.
  expect(errors.filter((e) => !/401 \(Unauthorized\)/.test(e))).toEqual([]);
});

test('a role changed while the page is open takes effect on the page without a reload', async ({
  browser,
  team,
}) => {
  const page = await logIn(browser, team.server.url, team.viewer);
  await expect(page.getByRole('note')).toHaveText(/You can read this workspace/);
  await expect(page.getByRole('button', { name: 'New session' })).toHaveCount(0);

  // The operator makes vic a member by editing the users file, as `arbor user` writes it.
  const usersFile = `${team.server.dataDir}/users.json`;
  const users = JSON.parse(fs.readFileSync(usersFile, 'utf8')) as {
    users: { name: string; role: string }[];
  };
  for (const user of users.users) if (user.name === 'vic') user.role = 'member';
  fs.writeFileSync(`${usersFile}.new`, JSON.stringify(users, null, 2));
  fs.renameSync(`${usersFile}.new`, usersFile);

  await expect(page.getByRole('button', { name: 'New session' })).toBeEnabled();
  await expect(editor(page)).toBeEnabled();
  await page.context().close();
});
