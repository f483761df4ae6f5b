import { test, expect } from './support/fixtures.js';
import { modelPicker, openArbor, pickModel, sendPrompt } from './support/page-helpers.js';

test('the model picker takes typing, searches the whole catalog by provider, and keeps what is picked', async ({
  page,
  arbor,
}) => {
  await openArbor(page, arbor.url);
  const box = modelPicker(page);
  await expect(box).toHaveValue('Arbor demo model · arbor');

  // Opened empty, it lists what the server offers, grouped by provider.
  await box.click();
  const list = page.getByRole('listbox');
  await expect(list.getByRole('group', { name: 'arbor', exact: true })).toBeVisible();
  await expect(list.getByRole('group', { name: 'anthropic', exact: true })).toHaveCount(0);

  // Words narrow it and reach the catalog's other models, each with its window, price and key.
  await box.fill('anthropic sonnet 4.5');
  const anthropic = list.getByRole('group', { name: 'anthropic', exact: true });
  const sonnet = anthropic.getByRole('option', { name: 'Claude Sonnet 4.5', exact: true });
  await expect(sonnet).toBeVisible();
  await expect(sonnet).toContainText(
    /anthropic\/claude-sonnet-4-5\S* · 200k context · \$3 \/ \$15 per M tokens · no key/,
  );
  // Another provider's model of the same name stays apart, in its own group.
  await expect(list.getByRole('group', { name: 'openrouter', exact: true })).toBeVisible();

  // Keys pick too: down to the option, Enter.
  await box.fill('claude-sonnet-4-5');
  await expect(anthropic.getByRole('option').first()).toBeVisible();
  await box.press('ArrowDown');
  await box.press('Enter');
  await expect(box).toHaveValue(/ · /);
  await expect(list).toHaveCount(0);

  // A model found by a search is the session's model, with the key it lacks said beside it.
  await pickModel(page, { provider: 'anthropic', name: 'Claude Sonnet 4.5', typed: 'sonnet 4.5' });
  const note = page.getByRole('note').filter({ hasText: 'no key' });
  await expect(note).toBeVisible();
  await expect(note).toHaveAttribute('title', /ANTHROPIC_API_KEY/);
  // The thinking levels are the model's: it reasons.
  await expect(
    page.getByRole('combobox', { name: 'Thinking level' }).getByRole('option'),
  ).not.toHaveCount(1);

  // A reload keeps it: the page finds the model's details though no snapshot offers it.
  await page.reload();
  await expect(box).toHaveValue('Claude Sonnet 4.5 · anthropic');
  await expect(page.getByRole('note').filter({ hasText: 'no key' })).toBeVisible();

  // Back to the demo model, and it answers.
  await pickModel(page, { provider: 'arbor', name: 'Arbor demo model', typed: 'demo' });
  await expect(page.getByRole('note').filter({ hasText: 'no key' })).toHaveCount(0);
  await sendPrompt(page, 'hello after picking');

  // The models this user chose lately come first, newest first, kept by the server.
  await page.reload();
  await box.click();
  const recent = list.getByRole('group', { name: 'Recent', exact: true });
  // The demo model, then the two Claude models picked above (by keys, then by a click).
  await expect(recent.getByRole('option')).toHaveText([
    /^Arbor demo model/,
    /^Claude Sonnet 4\.5anthropic\//,
    /^Claude Sonnet 4\.5 \(latest\)anthropic\//,
  ]);
  await expect(list.getByRole('group').first()).toHaveAccessibleName('Recent');
});
