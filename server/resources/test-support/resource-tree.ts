import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/*
 * A real folder laid out as a pi user keeps one: a git repository with a workspace inside it,
 * context files at several levels, skills in `.pi/skills`, `.agents/skills` (in the workspace
 * and at the repository's root) and the data folder, prompt templates in both places, and the
 * cases pi warns about (bad YAML, a bad name, a name clash).
 */

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
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  };
  for (const dir of [path.join(repo, '.git'), workspace, dataDir, home])
    fs.mkdirSync(dir, { recursive: true });
  write(path.join(dataDir, 'AGENTS.md'), '# Mine\nAlways answer in English.\n');
  write(path.join(repo, 'AGENTS.md'), '# Repository\nRun npm test before a commit.\n');
  write(path.join(workspace, 'CLAUDE.md'), 'The CLAUDE file, shadowed by AGENTS.md here.\n');
  write(path.join(workspace, 'AGENTS.md'), '\uFEFF# App\nUse tabs & "quotes".\r\n');
  write(
    path.join(workspace, '.pi/skills/deploy/SKILL.md'),
    '---\nname: deploy\ndescription: Deploy the app <safely> & "quickly".\n---\n# Deploy\nRun ./scripts/deploy.sh\n',
  );
  write(path.join(workspace, '.pi/skills/deploy/scripts/deploy.sh'), 'echo deploy\n');
  write(
    path.join(workspace, '.pi/skills/manual-only/SKILL.md'),
    '---\ndescription: Only when asked.\ndisable-model-invocation: true\n---\nManual steps.\n',
  );
  write(path.join(workspace, '.pi/skills/broken/SKILL.md'), '---\nname: [unclosed\n---\nBody\n');
  write(
    path.join(workspace, '.pi/skills/Bad_Name/SKILL.md'),
    '---\ndescription: A skill whose folder breaks the naming rule.\n---\nBody\n',
  );
  write(
    path.join(workspace, '.pi/skills/loose.md'),
    '---\ndescription: A loose skill file at the top.\n---\nLoose body\n',
  );
  write(
    path.join(workspace, '.agents/skills/lint/SKILL.md'),
    '---\ndescription: Lint the code.\n---\nRun the linter.\n',
  );
  write(
    path.join(repo, '.agents/skills/format/SKILL.md'),
    '---\ndescription: Format the code, from the repository root.\n---\nRun prettier.\n',
  );
  write(
    path.join(dataDir, 'skills/lint/SKILL.md'),
    '---\ndescription: The user-level lint, which the project one beats.\n---\nUser lint.\n',
  );
  write(
    path.join(dataDir, 'skills/notes/SKILL.md'),
    '---\ndescription: Keep notes.\n---\nWrite notes to NOTES.md.\n',
  );
  write(
    path.join(workspace, '.pi/prompts/fix.md'),
    '---\ndescription: Fix an issue\nargument-hint: <issue> [notes]\n---\nFix issue $1 ($ARGUMENTS). Notes: ${@:2}. Owner: ${3:-nobody}.\n',
  );
  write(
    path.join(workspace, '.pi/prompts/explain.md'),
    'Explain this code in plain words, for someone who has never seen this project before today: $@\n',
  );
  write(path.join(dataDir, 'prompts/fix.md'), 'The user-level fix, which the project one beats.\n');
  write(
    path.join(dataDir, 'prompts/summary.md'),
    '---\ndescription: Summarise\n---\nSummarise $1.\n',
  );
  // Ignore files, which pi applies inside skill and prompt folders.
  write(path.join(workspace, '.pi/skills/.gitignore'), 'ignored-skill/\n# a comment\n');
  write(
    path.join(workspace, '.pi/skills/ignored-skill/SKILL.md'),
    '---\ndescription: Ignored by .gitignore.\n---\nNo.\n',
  );
  write(path.join(workspace, '.pi/skills/self-ignored/.ignore'), 'SKILL.md\n');
  write(
    path.join(workspace, '.pi/skills/self-ignored/SKILL.md'),
    '---\ndescription: Ignored by its own folder.\n---\nNo.\n',
  );
  write(path.join(workspace, '.pi/prompts/.gitignore'), 'draft.md\n');
  write(path.join(workspace, '.pi/prompts/draft.md'), 'A draft, ignored.\n');
  return { root, repo, workspace, dataDir, home, write };
}
