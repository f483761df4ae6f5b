import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PI16_NODE } from '../store/test-support/pi16-oracle.js';
import { expandPromptTemplate } from './prompt-templates.js';
import { resourceSections } from './resource-prompt.js';
import { makeResourceTree, type ResourceTree } from './test-support/resource-tree.js';
import { loadWorkspaceResources, type LoadedResources } from './workspace-resources.js';

/*
 * Arbor finds, names and renders a workspace's resources as pi 1.6 does: pi's own
 * DefaultResourceLoader and buildSystemPromptSections, run under Node 22 on the same real
 * folders, are the oracle.
 */

const PI16_PACKAGE = path.resolve('oracles/pi16/node_modules/@earendil-works/pi-coding-agent');
const CHILD = path.join(import.meta.dirname, 'test-support/pi16-resources-child.mjs');
const TOOLS = ['read', 'bash', 'edit', 'write', 'grep', 'find', 'ls'];
const TEMPLATE_INPUTS = [
  '/fix 42',
  '/fix 42 "two words" third',
  "/fix 'unclosed quote here",
  '/fix   spaced\targs\nand a newline',
  '/fix',
  '/explain the "loader"',
  '/summary',
  '/unknown 1 2',
  'not a command /fix 1',
  '/fix "say \\"hi\\"" x y z',
];

interface PiAnswer {
  contextFiles: { path: string; content: string }[];
  skills: {
    name: string;
    description: string;
    filePath: string;
    disableModelInvocation: boolean;
  }[];
  skillDiagnostics: { type: string; path: string; message: string }[];
  prompts: {
    name: string;
    description: string;
    argumentHint?: string;
    content: string;
    filePath: string;
  }[];
  promptDiagnostics: { type: string; path: string; message: string }[];
  sections: { project_context?: string; skills?: string };
  expansions: string[];
}

let tree: ResourceTree;
let pi: PiAnswer;
let arbor: LoadedResources;

beforeAll(async () => {
  tree = makeResourceTree();
  const { stdout } = await promisify(execFile)(
    PI16_NODE,
    [
      CHILD,
      PI16_PACKAGE,
      tree.workspace,
      tree.dataDir,
      JSON.stringify({ tools: TOOLS, templateInputs: TEMPLATE_INPUTS }),
    ],
    {
      env: {
        ...process.env,
        HOME: tree.home,
        PI_CODING_AGENT_DIR: tree.dataDir,
        PI_OFFLINE: '1',
      },
      maxBuffer: 64 << 20,
    },
  );
  pi = JSON.parse(stdout) as PiAnswer;
  arbor = loadWorkspaceResources({
    workspace: tree.workspace,
    dataDir: tree.dataDir,
    policy: { enabled: true, projectTrusted: true, parents: true },
  });
}, 60_000);

afterAll(() => {
  if (tree) fs.rmSync(tree.root, { recursive: true, force: true });
});

describe('resources as pi 1.6 loads them', () => {
  it('finds the same context files, in the same order, with the same text', () => {
    expect(pi.contextFiles.length).toBe(3);
    expect(arbor.contextFiles.map(({ path: p, content }) => ({ path: p, content }))).toEqual(
      pi.contextFiles,
    );
  });

  it('finds the same skills, with pi precedence (project over user) and flags', () => {
    expect(pi.skills.map((s) => s.name)).toContain('format');
    // Left out by ignore files, in pi as in Arbor.
    expect(pi.skills.map((s) => s.name)).not.toContain('ignored-skill');
    expect(pi.skills.map((s) => s.name)).not.toContain('self-ignored');
    expect(pi.prompts.map((p) => p.name)).not.toContain('draft');
    expect(
      arbor.skills.map(({ name, description, filePath, disableModelInvocation }) => ({
        name,
        description,
        filePath,
        disableModelInvocation,
      })),
    ).toEqual(pi.skills);
  });

  it('warns about the same files: bad YAML, a bad name, a name clash', () => {
    const piPaths = [...pi.skillDiagnostics, ...pi.promptDiagnostics].map((d) => d.path).sort();
    expect(piPaths).toContain(path.join(tree.workspace, '.pi/skills/broken/SKILL.md'));
    expect(arbor.warnings.map((w) => w.path).sort()).toEqual(piPaths);
    expect(arbor.warnings.find((w) => w.path.endsWith('broken/SKILL.md'))?.message).toMatch(
      /^invalid frontmatter: /,
    );
  });

  it('finds the same templates, with their descriptions and hints', () => {
    expect(
      arbor.templates.map(({ name, description, argumentHint, content, filePath }) => ({
        name,
        description,
        argumentHint,
        content,
        filePath,
      })),
    ).toEqual(pi.prompts);
  });

  it('renders project_context and skills exactly as buildSystemPromptSections does', () => {
    expect(pi.sections.project_context).toBeDefined();
    expect(pi.sections.skills).toBeDefined();
    expect(resourceSections(arbor, TOOLS)).toEqual(pi.sections);
  });

  it('expands templates with pi argument rules', () => {
    expect(TEMPLATE_INPUTS.map((text) => expandPromptTemplate(text, arbor.templates))).toEqual(
      pi.expansions,
    );
    expect(pi.expansions[1]).toBe(
      'Fix issue 42 (42 two words third). Notes: two words third. Owner: third.',
    );
  });
});
