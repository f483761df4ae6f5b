import { expect, logIn, teamTest } from './support/fixtures.js';
import { chatMessages, editor, sendPrompt, sessionMenuItem } from './support/page-helpers.js';

/*
 * A viewer's page in team mode: it says once that it is read-only and how to get more, and offers
 * none of the controls a viewer can never use; a member's page keeps them all.
 */

const test = teamTest('admin', 'member', 'viewer');

const READ_ONLY = 'You can read this workspace; ask an admin for member access to change it.';
const ACTING_BUTTONS = [
  'Send',
  'Queue follow-up',
  'Abort',
  'Compact',
  'Fork',
  'Clone',
  'New session',
  'Edit',
  'Rerun',
  'Import session',
];

test('a viewer reads a session on a page that says it is read-only, without dead controls', async ({
  browser,
  team,
}) => {
  const errors: string[] = [];
  const admin = await logIn(browser, team.server.url, team.admin, errors);
  await expect(editor(admin)).toBeEnabled();
  await sendPrompt(admin, 'written by the admin');
  const sessionUrl = admin.url();
  // A run still going when the viewer looks: a page that can act would offer Abort now.
  await editor(admin).fill(`${'word '.repeat(400)}\n/slow 40`);
  await editor(admin).press('Enter');

  const viewer = await logIn(browser, sessionUrl, team.viewer, errors);
  await expect(chatMessages(viewer, 'assistant').first()).toContainText('written by the admin');
  await expect(viewer.getByRole('note')).toHaveText(READ_ONLY);
  await expect(viewer.getByText(READ_ONLY)).toHaveCount(1);
  await expect(
    viewer.getByRole('log', { name: 'Conversation' }).locator('[aria-busy="true"]'),
  ).toHaveCount(1);
  for (const name of ACTING_BUTTONS)
    await expect(viewer.getByRole('button', { name, exact: true }), name).toHaveCount(0);
  await expect(editor(viewer)).toHaveCount(0);
  for (const name of ['Model', 'Thinking level'])
    await expect(viewer.getByRole('combobox', { name }), name).toHaveCount(0);
  // The session menu offers a viewer what reads, and nothing that acts.
  await expect(await sessionMenuItem(viewer, 'Statistics')).toBeVisible();
  for (const name of ['Compact…', 'Fork', 'Clone'])
    await expect(viewer.getByRole('menuitem', { name, exact: true }), name).toHaveCount(0);
  await viewer.keyboard.press('Escape');
  // Whose prompt it is, said on it and in the list; the admin's own page says "You".
  await expect(
    chatMessages(viewer, 'user').first().getByText('ada', { exact: true }),
  ).toBeVisible();
  await expect(
    viewer
      .getByRole('navigation', { name: 'Sessions' })
      .getByText(/ · by ada/)
      .first(),
  ).toBeVisible();
  await expect(chatMessages(admin, 'user').first().getByText('You', { exact: true })).toBeVisible();
  // Reading is not acting: a viewer may copy a message.
  await expect(
    chatMessages(viewer, 'user').first().getByRole('button', { name: 'Copy' }),
  ).toBeVisible();
  // What the session uses is still said, as text.
  await expect(viewer.getByTitle('Model', { exact: true })).toHaveText('Arbor demo model');

  // A member's page keeps every control, and no read-only line. It opens the newest session, the
  // admin's, which a member reads but does not write; their own new session they write.
  const member = await logIn(browser, team.server.url, team.member, errors);
  await expect(editor(member)).toHaveAttribute(
    'placeholder',
    'Read only: you can view this session but not write to it.',
  );
  await expect(member.getByRole('note')).toHaveCount(0);
  await member.getByRole('button', { name: 'New session' }).click();
  await expect.poll(() => member.url()).not.toBe(sessionUrl);
  await expect(editor(member)).toBeEnabled();
  await expect(editor(member)).not.toHaveAttribute('placeholder', /Read only/);
  await expect(member.getByRole('combobox', { name: 'Model' })).toBeVisible();
  await expect(member.getByRole('note')).toHaveCount(0);

  for (const page of [admin, viewer, member]) await page.context().close();
  // Each page asks who it is before logging in; the browser logs that 401 itself.
  expect(errors.filter((e) => !/401 \(Unauthorized\)/.test(e))).toEqual([]);
});
