import { test, expect } from './support/fixtures.js';
import { chatMessages, editor, openArbor, sendPrompt } from './support/page-helpers.js';

/*
 * The prompt length limit as a person meets it: a counter from nine tenths of the limit, and past
 * it a refusal in words, at once, before anything is sent; the text stays to be shortened.
 */

test('a message past the length limit is refused before sending, and its text stays', async ({
  page,
  arbor,
}) => {
  const sent: string[] = [];
  page.on('websocket', (ws) =>
    ws.on('framesent', (frame) => {
      const type = /^\{"type":"([a-z_]+)"/.exec(String(frame.payload))?.[1];
      if (type) sent.push(type);
    }),
  );
  await openArbor(page, arbor.url);
  await sendPrompt(page, 'a first prompt');
  const send = page.getByRole('button', { name: 'Send' });

  await editor(page).fill('A'.repeat(912_345));
  await expect(page.getByText('912,345 / 1,000,000 characters')).toBeVisible();
  await expect(send).toBeEnabled();

  // One word without spaces, as a pasted blob is: it lays out without freezing the page.
  const tooLong = 'A'.repeat(1_000_001);
  await editor(page).fill(tooLong);
  const refusal =
    'This message is 1,000,001 characters; the limit is 1,000,000. Shorten it, or save it as a file in the workspace and ask the agent to read it.';
  await expect(page.getByRole('alert')).toHaveText(refusal);
  await expect(send).toBeDisabled();
  await expect(send).toHaveAccessibleDescription(refusal);
  const before = sent.length;
  await editor(page).press('Enter');
  await expect(editor(page)).toHaveValue(tooLong);
  await expect(chatMessages(page, 'user')).toHaveCount(1);

  // Shortened, it can go: the refusal leaves, and the next send is the only prompt sent.
  await editor(page).press('End');
  await editor(page).press('Backspace');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByText('1,000,000 / 1,000,000 characters')).toBeVisible();
  await expect(send).toBeEnabled();
  await sendPrompt(page, 'a short one instead');
  expect(sent.slice(before).filter((type) => type === 'prompt')).toEqual(['prompt']);
});
