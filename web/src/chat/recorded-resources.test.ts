import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { recordedContextFiles, recordedSkills } from './recorded-resources';

/*
 * The system-prompt node reads back the context files and skills from the sections pi 1.6
 * itself renders (its buildSystemPromptSections, run in a child process of its own).
 */

const PI16_NODE = process.execPath;
const PI16_PROMPT = path.resolve(
  'oracles/pi16/node_modules/@earendil-works/pi-coding-agent/dist/core/system-prompt.js',
);

interface PiInput {
  contextFiles: { path: string; content: string }[];
  skills: {
    name: string;
    description: string;
    filePath: string;
    disableModelInvocation: boolean;
  }[];
}

function piSections(input: PiInput): Record<string, string> {
  const script = `import(${JSON.stringify(pathToFileURL(PI16_PROMPT).href)}).then((m) => {
    const input = JSON.parse(process.argv[1]);
    const skills = input.skills.map((s) => ({ ...s, baseDir: s.filePath.replace(/\\/[^/]*$/, '') }));
    process.stdout.write(JSON.stringify(m.buildSystemPromptSections({ cwd: '/w', selectedTools: ['read', 'bash'], ...input, skills })));
  })`;
  const out = execFileSync(PI16_NODE, ['-e', script, JSON.stringify(input)], {
    encoding: 'utf8',
    env: {
      ...process.env,
      PI_OFFLINE: '1',
      PI_CODING_AGENT_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-pi16-agent-')),
    },
  });
  return JSON.parse(out) as Record<string, string>;
}

describe('recorded resources', () => {
  it("reads every context file back, text whole, from pi 1.6's project_context", () => {
    const contextFiles = [
      { path: '/home/me/.pi/agent/AGENTS.md', content: '# Mine\n\nAlways answer in English.' },
      {
        path: '/w/AGENTS.md',
        content:
          'Run `npm test`.\n\nA file that mentions <project_instructions path="x"> mid-line\n\n\nand ends in blank lines\n\n',
      },
      { path: '/w/sub dir/CLAUDE.md', content: '' },
    ];
    const sections = piSections({ contextFiles, skills: [] });
    expect(recordedContextFiles(sections.project_context!)).toEqual(contextFiles);
  });

  it("reads the advertised skills back from pi 1.6's skills section, escapes undone", () => {
    const skills = [
      {
        name: 'code-review',
        description: 'Review <diffs> & "patches" it\'s given',
        filePath: '/w/.pi/skills/code-review/SKILL.md',
        disableModelInvocation: false,
      },
      {
        name: 'hidden',
        description: 'Only by /skill:hidden',
        filePath: '/w/.pi/skills/hidden/SKILL.md',
        disableModelInvocation: true,
      },
      {
        name: 'pdf',
        description: 'Read PDF files',
        filePath: '/u/skills/pdf/SKILL.md',
        disableModelInvocation: false,
      },
    ];
    const sections = piSections({ contextFiles: [], skills });
    expect(recordedSkills(sections.skills!)).toEqual([
      {
        name: 'code-review',
        description: 'Review <diffs> & "patches" it\'s given',
        location: '/w/.pi/skills/code-review/SKILL.md',
      },
      { name: 'pdf', description: 'Read PDF files', location: '/u/skills/pdf/SKILL.md' },
    ]);
  });

  it('reads nothing from a section of another shape', () => {
    expect(recordedContextFiles('<project_context>\nnothing here\n</project_context>')).toEqual([]);
    expect(recordedSkills('<skills>\n(none)\n</skills>')).toEqual([]);
  });
});
