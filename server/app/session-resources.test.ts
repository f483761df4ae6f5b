import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentMessage, SystemMessage } from '../../shared/messages.js';
import type { SessionEntry } from '../../shared/session-entries.js';
import { currentSystemMessage } from '../../shared/system-prompt.js';
import { createAgentSession } from '../agent/create-agent-session.js';
import { DEMO_MODEL_ID, DEMO_PROVIDER } from '../demo-model/demo-model-handler.js';
import { startDemoModel, type RunningDemoModel } from '../demo-model/demo-model-server.js';
import { ModelCatalog } from '../models/model-catalog.js';
import { resourceSections } from '../resources/resource-prompt.js';
import { makeResourceTree, type ResourceTree } from '../resources/test-support/resource-tree.js';
import { loadWorkspaceResources } from '../resources/workspace-resources.js';
import { setTrust } from '../resources/workspace-trust.js';
import { SessionStore } from '../store/session-store.js';
import { sessionResources } from './session-resources.js';

/*
 * A session with a real workspace's resources, against the demo model: the recorded prompt
 * carries pi 1.6's project_context and skills sections, an edited AGENTS.md is patched in at the
 * next request (also within a run, after a tool wrote it), `/skill:name` and `/template args`
 * become the user message pi would record, and the switch and trust decide what loads.
 */

const TOOLS = ['read', 'bash', 'edit', 'write', 'grep', 'find', 'ls'];

let demo: RunningDemoModel;
let tree: ResourceTree;
let catalog: ModelCatalog;
let sessionDir: string;

beforeAll(async () => {
  demo = await startDemoModel({ port: 0 });
  tree = makeResourceTree();
  sessionDir = path.join(tree.root, 'sessions');
  catalog = ModelCatalog.load({ dataDir: tree.dataDir, demoBaseUrl: demo.baseUrl, env: {} });
});

afterAll(async () => {
  await demo?.close();
  if (tree) fs.rmSync(tree.root, { recursive: true, force: true });
});

async function openSession(
  store: SessionStore,
  opts: { enabled?: boolean; teamMode?: boolean } = {},
) {
  return createAgentSession({
    workspace: tree.workspace,
    store,
    catalog,
    model: { provider: DEMO_PROVIDER, modelId: DEMO_MODEL_ID },
    toolPolicy: { bash: 'unsandboxed' },
    resources: sessionResources({
      workspace: tree.workspace,
      dataDir: tree.dataDir,
      enabled: opts.enabled ?? true,
      teamMode: () => opts.teamMode ?? false,
    }),
  });
}

async function promptOnce(store: SessionStore, text: string, opts = {}) {
  const session = await openSession(store, opts);
  try {
    await session.prompt(text);
  } finally {
    await session.dispose();
  }
}

function messagesOf(file: string): AgentMessage[] {
  return fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => JSON.parse(line) as SessionEntry)
    .flatMap((entry) => (entry.type === 'message' ? [entry.message] : []));
}

function systemMessages(file: string): SystemMessage[] {
  return messagesOf(file).filter((m): m is SystemMessage => m.role === 'system');
}

function userTexts(file: string): string[] {
  return messagesOf(file).flatMap((m) =>
    m.role === 'user' && Array.isArray(m.content)
      ? [m.content.map((block) => (block.type === 'text' ? block.text : '')).join('')]
      : [],
  );
}

function expectedSections() {
  return resourceSections(
    loadWorkspaceResources({
      workspace: tree.workspace,
      dataDir: tree.dataDir,
      policy: { enabled: true, projectTrusted: true, parents: true },
    }),
    TOOLS,
  );
}

describe('a session with workspace resources', () => {
  it('records project_context and skills before cwd, as pi orders its sections', async () => {
    const store = SessionStore.create({ cwd: tree.workspace, sessionDir });
    await promptOnce(store, 'hello');
    const [first] = systemMessages(store.file!);
    const names = Object.keys(first!.sections ?? {});
    expect(names.slice(-3)).toEqual(['project_context', 'skills', 'cwd']);
    const expected = expectedSections();
    expect(first!.sections!.project_context).toBe(expected.project_context);
    expect(first!.sections!.skills).toBe(expected.skills);
    expect(first!.sections!.project_context).toContain('Use tabs & "quotes".');
  });

  it('patches a changed AGENTS.md in at the next request, and nothing else', async () => {
    const agents = path.join(tree.workspace, 'AGENTS.md');
    const before = fs.readFileSync(agents, 'utf8');
    try {
      // One session throughout: the prompt is asked afresh, not fixed when the session opened.
      const store = SessionStore.create({ cwd: tree.workspace, sessionDir });
      const session = await openSession(store);
      try {
        await session.prompt('one');
        fs.writeFileSync(agents, '# App\nNow use spaces.\n');
        await session.prompt('two');
        // A third prompt with nothing changed records no system message.
        await session.prompt('three');
      } finally {
        await session.dispose();
      }
      const system = systemMessages(store.file!);
      expect(system).toHaveLength(2);
      expect(Object.keys(system[1]!.sections!)).toEqual(['project_context']);
      expect(system[1]!.sections!.project_context).toContain('Now use spaces.');
      expect(system[1]!.sections!.project_context).not.toContain('Use tabs');
      const roles = messagesOf(store.file!).map((m) => m.role);
      expect(roles.slice(3, 6)).toEqual(['system', 'user', 'assistant']);
    } finally {
      fs.writeFileSync(agents, before);
    }
  });

  it('patches within a run: a tool that rewrites AGENTS.md is seen by the very next request', async () => {
    const agents = path.join(tree.workspace, 'AGENTS.md');
    const before = fs.readFileSync(agents, 'utf8');
    try {
      const store = SessionStore.create({ cwd: tree.workspace, sessionDir });
      const call = JSON.stringify({ path: 'AGENTS.md', content: 'Written by the model.\n' });
      await promptOnce(store, `/tool write ${call}`);
      const messages = messagesOf(store.file!);
      const roles = messages.map((m) => m.role);
      // system (full), user, assistant (tool call), tool result, system (patch), assistant.
      expect(roles).toEqual(['system', 'user', 'assistant', 'toolResult', 'system', 'assistant']);
      const patch = messages[4] as SystemMessage;
      expect(patch.sections?.project_context).toContain('Written by the model.');
      expect(currentSystemMessage(messages)?.sections?.project_context).toContain(
        'Written by the model.',
      );
    } finally {
      fs.writeFileSync(agents, before);
    }
  });

  it('/skill:name args records the skill block pi writes, the arguments after it', async () => {
    const store = SessionStore.create({ cwd: tree.workspace, sessionDir });
    await promptOnce(store, '/skill:deploy to staging');
    const skillFile = path.join(tree.workspace, '.pi/skills/deploy/SKILL.md');
    expect(userTexts(store.file!)).toEqual([
      `<skill name="deploy" location="${skillFile}">\nReferences are relative to ${path.dirname(skillFile)}.\n\n# Deploy\nRun ./scripts/deploy.sh\n</skill>\n\nto staging`,
    ]);
  });

  it('a skill left out of the prompt (disable-model-invocation) still loads by /skill:', async () => {
    const store = SessionStore.create({ cwd: tree.workspace, sessionDir });
    await promptOnce(store, '/skill:manual-only');
    expect(userTexts(store.file!)[0]).toMatch(
      /^<skill name="manual-only"[^]*Manual steps\.\n<\/skill>$/,
    );
    expect(systemMessages(store.file!)[0]!.sections!.skills).not.toContain('manual-only');
  });

  it('/template args records the expanded text; an unknown command stays as typed', async () => {
    const store = SessionStore.create({ cwd: tree.workspace, sessionDir });
    await promptOnce(store, '/fix 42 "two words"');
    await promptOnce(SessionStore.open(store.file!), '/nosuch 1');
    expect(userTexts(store.file!)).toEqual([
      'Fix issue 42 (42 two words). Notes: two words. Owner: nobody.',
      '/nosuch 1',
    ]);
  });

  it('expands a follow-up queued during a run, as pi queues the expanded text', async () => {
    const store = SessionStore.create({ cwd: tree.workspace, sessionDir });
    const session = await openSession(store);
    try {
      const run = session.prompt('/slow 20\nfirst');
      session.followUp('/fix 5');
      await run;
    } finally {
      await session.dispose();
    }
    expect(userTexts(store.file!)).toEqual([
      '/slow 20\nfirst',
      'Fix issue 5 (5). Notes: . Owner: nobody.',
    ]);
  });

  it('with resources switched off, nothing loads and /templates stay text', async () => {
    const store = SessionStore.create({ cwd: tree.workspace, sessionDir });
    await promptOnce(store, '/fix 1', { enabled: false });
    const sections = systemMessages(store.file!)[0]!.sections!;
    expect(sections.project_context).toBeUndefined();
    expect(sections.skills).toBeUndefined();
    expect(userTexts(store.file!)).toEqual(['/fix 1']);
    const session = await openSession(SessionStore.open(store.file!), { enabled: false });
    const described = session.resources.describe();
    await session.dispose();
    expect(described).toMatchObject({ loaded: false, contextFiles: [], skills: [], templates: [] });
    expect(described.reason).toMatch(/switched off/);
  });

  it('in team mode an untrusted workspace loads only the data folder’s; trusting it loads the rest', async () => {
    const trustFile = path.join(tree.dataDir, 'trust.json');
    try {
      const store = SessionStore.create({ cwd: tree.workspace, sessionDir });
      await promptOnce(store, '/fix 7', { teamMode: true });
      const first = systemMessages(store.file!)[0]!.sections!;
      // Only the operator's AGENTS.md: neither the workspace's nor its parents'.
      expect(first.project_context).toContain('Always answer in English.');
      expect(first.project_context).not.toContain('Run npm test');
      expect(first.project_context).not.toContain('# App');
      expect(first.skills).toContain('<name>notes</name>');
      expect(first.skills).not.toContain('deploy');
      // The user-level /fix expands (the project's is not loaded).
      // Without frontmatter pi keeps the file's text as it is, final newline included.
      expect(userTexts(store.file!)).toEqual([
        'The user-level fix, which the project one beats.\n',
      ]);
      const session = await openSession(SessionStore.open(store.file!), { teamMode: true });
      const untrusted = session.resources.describe();
      await session.dispose();
      expect(untrusted.loaded).toBe(true);
      expect(untrusted.warnings.map((w) => w.message).join('\n')).toMatch(
        /an admin has not trusted this workspace/,
      );

      setTrust(tree.dataDir, tree.workspace, true);
      await promptOnce(SessionStore.open(store.file!), '/fix 8', { teamMode: true });
      const patch = systemMessages(store.file!)[1]!.sections!;
      expect(patch.project_context).toContain('# App');
      // Team mode never reads above the workspace, trusted or not.
      expect(patch.project_context).not.toContain('Run npm test');
      expect(patch.skills).toContain('deploy');
      expect(patch.skills).not.toContain('<name>format</name>');
      expect(userTexts(store.file!)[1]).toBe('Fix issue 8 (8). Notes: . Owner: nobody.');
    } finally {
      fs.rmSync(trustFile, { force: true });
    }
  });
});
