import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/*
 * A real folder laid out as a pi user keeps one: a git repository with a workspace inside it,
 * context files at several levels, skills in `.pi/skills`, `.agents/skills` (in the workspace
 * and at the repository's root) and the data folder, prompt templates in both places, and the
 * cases pi warns about (bad YAML, a bad name, a name clash).
 */

/** A markdown file with YAML frontmatter, as skills and prompt templates are written. */
const md = (frontmatter: string, body: string) => `---\n${frontmatter}\n---\n${body}`;

/** Writes `text` to `file`, making its folders first. */
export function writeFile(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

export interface ResourceTree {
  root: string;
  repo: string;
  workspace: string;
  dataDir: string;
  /** An empty HOME for pi, so its `~/.agents/skills` is nowhere. */
  home: string;
  write(file: string, text: string): void;
}

export function makeResourceTree(): ResourceTree {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-resources-')));
  const repo = path.join(root, 'repo');
  const workspace = path.join(repo, 'app');
  const dataDir = path.join(root, 'data');
  const home = path.join(root, 'home');
  for (const dir of [path.join(repo, '.git'), workspace, dataDir, home])
    fs.mkdirSync(dir, { recursive: true });
  const files: [string, string, string][] = [
    [dataDir, 'AGENTS.md', '# Mine\nAlways answer in English.\n'],
    [repo, 'AGENTS.md', '# Repository\nRun npm test before a commit.\n'],
    [workspace, 'CLAUDE.md', 'The CLAUDE file, shadowed by AGENTS.md here.\n'],
    [workspace, 'AGENTS.md', '\uFEFF# App\nUse tabs & "quotes".\r\n'],
    [
      workspace,
      '.pi/skills/deploy/SKILL.md',
      md(
        'name: deploy\ndescription: Deploy the app <safely> & "quickly".',
        '# Deploy\nRun ./scripts/deploy.sh\n',
      ),
    ],
    [workspace, '.pi/skills/deploy/scripts/deploy.sh', 'echo deploy\n'],
    [
      workspace,
      '.pi/skills/manual-only/SKILL.md',
      md('description: Only when asked.\ndisable-model-invocation: true', 'Manual steps.\n'),
    ],
    [workspace, '.pi/skills/broken/SKILL.md', md('name: [unclosed', 'Body\n')],
    [
      workspace,
      '.pi/skills/Bad_Name/SKILL.md',
      md('description: A skill whose folder breaks the naming rule.', 'Body\n'),
    ],
    [
      workspace,
      '.pi/skills/loose.md',
      md('description: A loose skill file at the top.', 'Loose body\n'),
    ],
    [
      workspace,
      '.agents/skills/lint/SKILL.md',
      md('description: Lint the code.', 'Run the linter.\n'),
    ],
    [
      repo,
      '.agents/skills/format/SKILL.md',
      md('description: Format the code, from the repository root.', 'Run prettier.\n'),
    ],
    [
      dataDir,
      'skills/lint/SKILL.md',
      md('description: The user-level lint, which the project one beats.', 'User lint.\n'),
    ],
    [
      dataDir,
      'skills/notes/SKILL.md',
      md('description: Keep notes.', 'Write notes to NOTES.md.\n'),
    ],
    [
      workspace,
      '.pi/prompts/fix.md',
      md(
        'description: Fix an issue\nargument-hint: <issue> [notes]',
        'Fix issue $1 ($ARGUMENTS). Notes: ${@:2}. Owner: ${3:-nobody}.\n',
      ),
    ],
    [
      workspace,
      '.pi/prompts/explain.md',
      'Explain this code in plain words, for someone who has never seen this project before today: $@\n',
    ],
    [dataDir, 'prompts/fix.md', 'The user-level fix, which the project one beats.\n'],
    [dataDir, 'prompts/summary.md', md('description: Summarise', 'Summarise $1.\n')],
    // Ignore files, which pi applies inside skill and prompt folders.
    [workspace, '.pi/skills/.gitignore', 'ignored-skill/\n# a comment\n'],
    [
      workspace,
      '.pi/skills/ignored-skill/SKILL.md',
      md('description: Ignored by .gitignore.', 'No.\n'),
    ],
    [workspace, '.pi/skills/self-ignored/.ignore', 'SKILL.md\n'],
    [
      workspace,
      '.pi/skills/self-ignored/SKILL.md',
      md('description: Ignored by its own folder.', 'No.\n'),
    ],
    [workspace, '.pi/prompts/.gitignore', 'draft.md\n'],
    [workspace, '.pi/prompts/draft.md', 'A draft, ignored.\n'],
  ];
  for (const [base, file, text] of files) writeFile(path.join(base, file), text);
  return { root, repo, workspace, dataDir, home, write: writeFile };
}
