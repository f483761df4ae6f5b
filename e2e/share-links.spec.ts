import { expect, logIn, teamTest } from './support/fixtures.js';
import {
  chatMessages,
  sendPrompt,
  sessionAction,
  sessionMenuItem,
  waitIdle,
} from './support/page-helpers.js';

/*
 * A share link as people use it: an admin makes one in the Share dialog; a logged-out viewer who
 * opens it logs in and lands reading the session where it was shared; once revoked it says so.
 */

const test = teamTest('admin', 'viewer');

test('a viewer opens a share link after logging in, at the shared point; a revoked link says so', async ({
  browser,
  team,
}) => {
  const errors: string[] = [];
  const admin = await logIn(browser, team.server.url, team.admin, errors);
  await sendPrompt(admin, 'the shared question');
  await waitIdle(admin);

  await sessionAction(admin, 'Share…');
  const dialog = admin.getByRole('dialog', { name: 'Share links' });
  await expect(dialog.getByText('No links yet.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const field = dialog.getByRole('textbox', { name: 'Link by ada' });
  await expect(field).toHaveValue(/\/share\/[\w-]{32}$/);
  const link = await field.inputValue();
  await dialog.getByRole('button', { name: 'Close' }).press('Enter');
  await sendPrompt(admin, 'asked after sharing');
  await waitIdle(admin);

  const viewer = await logIn(browser, link, team.viewer, errors);
  await expect(viewer.getByRole('region', { name: 'Reading mode' })).toBeVisible();
  await expect(chatMessages(viewer, 'user')).toHaveText([/the shared question/]);
  await expect(await sessionMenuItem(viewer, 'Share…')).toBeVisible();
  await viewer.keyboard.press('Escape');

  // A link made at the leaf opens the session as it is, not "reading an earlier point".
  await sessionAction(admin, 'Share…');
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const links = dialog.getByRole('textbox', { name: 'Link by ada' });
  await expect(links).toHaveCount(2);
  const values = await Promise.all((await links.all()).map((box) => box.inputValue()));
  const atLeaf = values.find((value) => value !== link)!;
  await dialog.getByRole('button', { name: 'Close' }).press('Enter');
  await viewer.goto(atLeaf);
  await expect(chatMessages(viewer, 'user')).toHaveText([
    /the shared question/,
    /asked after sharing/,
  ]);
  await expect(viewer.getByRole('region', { name: 'Reading mode' })).toHaveCount(0);
  await expect(viewer).not.toHaveURL(/read=/);
  await sessionAction(admin, 'Share…');
  await dialog.getByRole('button', { name: 'Revoke' }).nth(values.indexOf(atLeaf)).click();
  await expect(links).toHaveCount(1);
  await dialog.getByRole('button', { name: 'Close' }).press('Enter');

  await sessionAction(admin, 'Share…');
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await expect(dialog.getByText('No links yet.')).toBeVisible();

  await viewer.goto(link);
  await expect(
    viewer.getByRole('heading', { name: 'This share link does not exist' }),
  ).toBeVisible();

  for (const page of [admin, viewer]) await page.context().close();
  expect(errors.filter((e) => !/401 \(Unauthorized\)|404 \(Not Found\)/.test(e))).toEqual([]);
});
