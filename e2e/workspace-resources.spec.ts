import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { test as base, expect, serveDuring } from './support/fixtures.js';
import { makeTempDirs } from './support/arbor-server.js';
import { chatMessages, editor, openArbor, waitIdle } from './support/page-helpers.js';

/*
 * The workspace's context files, skills and prompt templates on the page (decision 086): the
 * editor's `/` menu offers templates and skills and inserts the chosen command, which the server
 * expands; the system-prompt node lists the loaded files and advertised skills; a skill with
 * invalid frontmatter is a calm notice, never a crash. A real server, a real workspace.
 */

const FILES: Record<string, string> = {
  'AGENTS.md': '# House rules\n\nAlways run the tests before you commit.\n',
  '.pi/prompts/review.md':
    '---\ndescription: Review a file with care\nargument-hint: <file>\n---\nReview $1 carefully, then list what to fix.\n',
  '.pi/prompts/explain.md': '---\ndescription: Explain the code\n---\nExplain $@ to a newcomer.\n',
  '.pi/skills/code-review/SKILL.md':
    '---\nname: code-review\ndescription: Careful code review with a checklist\n---\n# Code review\n\nRead the diff twice.\n',
  '.pi/skills/broken/SKILL.md': '---\nname: [broken\ndescription: never closed\n---\nBody.\n',
};

function writeFiles(root: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
}

function slashMenu(page: Page): Locator {
  return page.getByRole('listbox', { name: 'Prompt templates and skills' });
}

const test = base.extend({
  // The workspace holds the resources before the server starts.
  // eslint-disable-next-line no-empty-pattern
  arbor: async ({}, use, testInfo) => {
    const dirs = makeTempDirs();
    writeFiles(dirs.workspace, FILES);
    await serveDuring(testInfo, dirs, use);
  },
});

test('the / menu offers templates and skills, filters as you type and works by keyboard', async ({
  page,
  arbor,
}) => {
  await openArbor(page, arbor.url);
  const menu = slashMenu(page);
  const input = editor(page);

  await input.pressSequentially('/');
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('option')).toHaveText([
    /^\/explain Explain the code$/,
    /^\/review <file> Review a file with care$/,
    /^\/skill:code-review Careful code review with a checklist$/,
  ]);
  // The editor keeps focus and names the highlighted option as its active descendant.
  await expect(input).toBeFocused();
  const first = menu.getByRole('option').first();
  await expect(first).toHaveAttribute('aria-selected', 'true');
  await expect(input).toHaveAttribute('aria-activedescendant', (await first.getAttribute('id'))!);
  await expect(input).toHaveAttribute('aria-controls', (await menu.getAttribute('id'))!);

  // Filtered as you type: a skill is found by its bare name.
  await input.pressSequentially('rev');
  await expect(menu.getByRole('option')).toHaveText([/^\/review/, /^\/skill:code-review/]);
  await input.press('ArrowDown');
  await expect(menu.getByRole('option', { name: /skill:code-review/ })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await input.press('ArrowDown');
  await expect(menu.getByRole('option', { name: /^\/review/ })).toHaveAttribute(
    'aria-selected',
    'true',
  );

  // Escape closes the menu and leaves the text; typing on opens it again.
  await input.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(input).toHaveValue('/rev');
  await expect(input).toBeFocused();
  await input.pressSequentially('i');
  await expect(menu).toBeVisible();

  // Enter chooses: `/review ` in the editor, nothing sent yet.
  await input.press('Enter');
  await expect(menu).toHaveCount(0);
  await expect(input).toHaveValue('/review ');
  await expect(chatMessages(page, 'user')).toHaveCount(0);

  // Sent as typed; the server expands the template before it becomes the user message.
  await input.pressSequentially('src/app.ts');
  await input.press('Enter');
  await expect(chatMessages(page, 'user')).toHaveText([
    /Review src\/app\.ts carefully, then list what to fix\./,
  ]);
  await waitIdle(page);

  // Tab chooses too.
  await input.pressSequentially('/expl');
  await input.press('Tab');
  await expect(input).toHaveValue('/explain ');
  await expect(input).toBeFocused();
});

test('a click on an option inserts it and keeps the focus in the editor', async ({
  page,
  arbor,
}) => {
  await openArbor(page, arbor.url);
  const input = editor(page);
  await input.pressSequentially('/sk');
  await slashMenu(page)
    .getByRole('option', { name: /skill:code-review/ })
    .click();
  await expect(input).toHaveValue('/skill:code-review ');
  await expect(input).toBeFocused();
  await expect(slashMenu(page)).toHaveCount(0);
});

test('the system-prompt node lists the loaded context files and skills, and the skill that did not load', async ({
  page,
  arbor,
}) => {
  await openArbor(page, arbor.url);
  // A skill with invalid frontmatter: one calm notice, and the page goes on.
  await expect(page.getByRole('alert')).toContainText(
    'One workspace file was skipped or read with a problem',
  );
  await expect(page.getByRole('alert')).toContainText('broken/SKILL.md');

  await editor(page).fill('hello');
  await editor(page).press('Enter');
  await waitIdle(page);

  const system = chatMessages(page, 'system');
  await expect(system).toHaveCount(1);
  await system.getByText(/context file/).click();
  const files = system.getByRole('region', { name: 'Context files' });
  await expect(files).toContainText('Context files (1)');
  const agents = files.getByText(path.join(arbor.workspace, 'AGENTS.md'), { exact: true });
  await expect(agents).toBeVisible();
  // Folded to its path until opened (the raw section, folded too, holds the same text).
  const text = files.getByText('Always run the tests before you commit.').first();
  await expect(text).toBeHidden();
  await agents.click();
  await expect(text).toBeVisible();

  const skills = system.getByRole('region', { name: 'Skills' });
  await expect(skills).toContainText('Skills advertised (1)');
  await expect(skills).toContainText('code-review Careful code review with a checklist');

  const now = system.getByRole('region', { name: 'Workspace resources now' });
  await expect(now).toContainText('Skipped or read with a problem (1)');
  await expect(now).toContainText('broken/SKILL.md');
});

test('a template a run writes is offered at once after the run', async ({ page, arbor }) => {
  await openArbor(page, arbor.url);
  const input = editor(page);
  await input.pressSequentially('/sum');
  await expect(slashMenu(page)).toHaveCount(0);
  await input.fill(
    '/tool write {"path":".pi/prompts/summarise.md","content":"---\\ndescription: Summarise the thread\\n---\\nSummarise.\\n"}',
  );
  await input.press('Enter');
  await waitIdle(page);
  await input.pressSequentially('/sum');
  await expect(slashMenu(page).getByRole('option')).toHaveText(['/summarise Summarise the thread']);
});

base(
  'resources switched off: the / menu and the system-prompt node say why, and nothing loads',
  async ({ page }, testInfo) => {
    const dirs = makeTempDirs();
    writeFiles(dirs.workspace, FILES);
    fs.writeFileSync(path.join(dirs.dataDir, 'config.json'), JSON.stringify({ resources: false }));
    await serveDuring(testInfo, dirs, async (server) => {
      await openArbor(page, server.url);
      const reason =
        'Context files, skills and prompt templates are switched off for this workspace';
      await editor(page).pressSequentially('/rev');
      await expect(slashMenu(page)).toHaveCount(0);
      await expect(page.getByText(reason)).toBeVisible();
      // No warning either: nothing was read.
      await expect(page.getByText('skipped or read with a problem')).toHaveCount(0);

      await editor(page).fill('hello');
      await editor(page).press('Enter');
      await waitIdle(page);
      const system = chatMessages(page, 'system');
      await expect(system).not.toContainText('context file');
      await system.getByText(/section/).click();
      await expect(system.getByRole('region', { name: 'Workspace resources now' })).toContainText(
        reason,
      );
    });
  },
);
