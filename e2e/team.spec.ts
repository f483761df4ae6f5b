import fs from 'node:fs';
import { test as base, expect } from '@playwright/test';
import { addUser, makeTempDirs, startArbor, type ArborServer } from './support/arbor-server.js';
import { watchContext } from './support/fixtures.js';
import { chatMessages, editor, sendPrompt } from './support/page-helpers.js';

const test = base.extend<{ team: { server: ArborServer; admin: string; viewer: string } }>({
  // eslint-disable-next-line no-empty-pattern
  team: async ({}, use, testInfo) => {
    const dirs = makeTempDirs();
    const admin = addUser(dirs.dataDir, 'ada', 'admin');
    const viewer = addUser(dirs.dataDir, 'vic', 'viewer');
    const server = await startArbor(dirs);
    try {
      await use({ server, admin, viewer });
    } finally {
      await server.stop();
      if (testInfo.status !== testInfo.expectedStatus)
        fs.writeFileSync(testInfo.outputPath('server.log'), server.log());
    }
  },
});

test('team mode: log in with a token; a viewer sees a session but cannot prompt', async ({
  browser,
  team,
}) => {
  const errors: string[] = [];
  const adminContext = await browser.newContext();
  watchContext(adminContext, errors);
  const adminPage = await adminContext.newPage();
  await adminPage.goto(team.server.url);
  await adminPage.getByRole('textbox', { name: 'Token' }).fill('not-a-token');
  await adminPage.getByRole('button', { name: 'Log in' }).click();
  await expect(adminPage.getByRole('alert')).toContainText('not valid');
  await adminPage.getByRole('textbox', { name: 'Token' }).fill(team.admin);
  await adminPage.getByRole('button', { name: 'Log in' }).click();
  await expect(editor(adminPage)).toBeEnabled();
  await sendPrompt(adminPage, 'admin was here');
  const sessionUrl = adminPage.url();

  const viewerContext = await browser.newContext();
  watchContext(viewerContext, errors);
  const viewerPage = await viewerContext.newPage();
  await viewerPage.goto(sessionUrl);
  await viewerPage.getByRole('textbox', { name: 'Token' }).fill(team.viewer);
  await viewerPage.getByRole('button', { name: 'Log in' }).click();
  await expect(chatMessages(viewerPage, 'assistant')).toContainText(['admin was here']);
  // A viewer's page is read-only (e2e/viewer.spec.ts): no editor, no controls to act with.
  await expect(viewerPage.getByRole('note')).toHaveText(/You can read this workspace/);
  await expect(editor(viewerPage)).toHaveCount(0);
  await expect(viewerPage.getByRole('button', { name: 'Send' })).toHaveCount(0);

  await adminContext.close();
  await viewerContext.close();
  // Login failures answer 401, which the browser reports on its own console: that one is expected.
  expect(errors.filter((e) => !/401 \(Unauthorized\)/.test(e))).toEqual([]);
});

test('a role changed while the page is open takes effect on the page without a reload', async ({
  browser,
  team,
}) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(team.server.url);
  await page.getByRole('textbox', { name: 'Token' }).fill(team.viewer);
  await page.getByRole('button', { name: 'Log in' }).click();
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
  await context.close();
});
