import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWithPi16 } from '../store/test-support/pi16-oracle.js';
import { SessionStore } from '../store/session-store.js';

let root: string;
let runner: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-run-'));
  runner = path.join(root, 'run.mts');
  const main = path.resolve('server/cli/main.ts');
  fs.writeFileSync(
    runner,
    `import { runCli } from ${JSON.stringify(main)};\nprocess.exitCode = await runCli(process.argv.slice(2));\n`,
  );
});
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

function arbor(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', runner, ...args], {
      cwd: path.resolve('.'),
      env: { ...process.env, OPENAI_API_KEY: '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('arbor run', () => {
  it('prints the header then every event as JSON lines, and pi reads the session it wrote the same way', async () => {
    const workspace = path.join(root, 'ws');
    const data = path.join(root, 'data');
    fs.mkdirSync(workspace);
    const prompt =
      'make a file\n/tool write {"path":"out.txt","content":"written by the agent"}\n/tool bash {"command":"cat out.txt"}\n/fail 503';
    const result = await arbor(['run', '--data', data, '--workspace', workspace, prompt]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string });
    expect(lines[0]).toMatchObject({ type: 'session', version: 3, cwd: workspace });
    const types = lines.map((l) => l.type);
    expect(types).toContain('auto_retry_start');
    // The session's state, pushed when the run is over, is the one line after agent_end.
    expect(types.filter((type) => type !== 'state_changed').at(-1)).toBe('agent_end');
    expect(types.at(-1)).toBe('state_changed');
    expect(fs.readFileSync(path.join(workspace, 'out.txt'), 'utf8')).toBe('written by the agent');

    const dir = path.join(data, 'sessions', `--${workspace.slice(1).replace(/\//g, '-')}--`);
    const [file] = fs.readdirSync(dir).filter((name) => name.endsWith('.jsonl'));
    const sessionFile = path.join(dir, file!);
    const ours = SessionStore.openReadOnly(sessionFile);
    // pi 1.6, whose dialect Arbor writes (the prompt, the retried attempt's context_edit).
    const pi = await readWithPi16(sessionFile);
    try {
      const mine = JSON.parse(JSON.stringify(ours.buildSessionContext())) as typeof pi.context;
      const theirs = pi.context;
      expect(mine.messages).toEqual(theirs.messages);
      expect(mine.model).toEqual(theirs.model);
      expect(mine.thinkingLevel).toEqual(theirs.thinkingLevel);
      expect(mine.messages.filter((m: { role: string }) => m.role === 'toolResult')).toHaveLength(
        2,
      );
    } finally {
      ours.close();
    }

    // The same file continues with --session.
    const again = await arbor([
      'run',
      '--data',
      data,
      '--workspace',
      workspace,
      '--session',
      sessionFile,
      'and more',
    ]);
    expect(again.code).toBe(0);
    const reopened = SessionStore.openReadOnly(sessionFile);
    try {
      const texts = reopened
        .buildSessionContext()
        .messages.filter((m) => m.role === 'assistant')
        .map((m) =>
          m.role === 'assistant'
            ? m.content.map((b) => (b.type === 'text' ? b.text : '')).join('')
            : '',
        );
      expect(texts.at(-1)).toBe('You said: "and more"');
    } finally {
      reopened.close();
    }
  });

  it("uses the workspace's context files and templates, as the server does", async () => {
    const workspace = fs.realpathSync(fs.mkdtempSync(path.join(root, 'res-ws-')));
    const data = path.join(root, 'res-data');
    fs.writeFileSync(path.join(workspace, 'AGENTS.md'), 'Answer like a pirate.\n');
    fs.mkdirSync(path.join(workspace, '.pi/prompts'), { recursive: true });
    fs.writeFileSync(path.join(workspace, '.pi/prompts/greet.md'), 'Say hello to $1 and ${@:2}\n');
    const result = await arbor([
      'run',
      '--data',
      data,
      '--workspace',
      workspace,
      '/greet Ann Bo Cy',
    ]);
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; message?: Record<string, unknown> });
    const ends = lines.filter((l) => l.type === 'message_end').map((l) => l.message!);
    const system = ends.find((m) => m.role === 'system') as { sections: Record<string, string> };
    expect(system.sections.project_context).toContain(
      `<project_instructions path="${path.join(workspace, 'AGENTS.md')}">\nAnswer like a pirate.\n`,
    );
    const user = ends.find((m) => m.role === 'user') as { content: { text: string }[] };
    expect(user.content[0]?.text).toBe('Say hello to Ann and Bo Cy\n');
  });

  it('explains bad usage', async () => {
    const noPrompt = await arbor(['run', '--workspace', root]);
    expect(noPrompt.code).toBe(2);
    expect(noPrompt.stderr).toMatch(/a prompt is required/);
    const badModelWorkspace = path.join(root, 'ws-bad-model');
    fs.mkdirSync(badModelWorkspace);
    const badModel = await arbor([
      'run',
      '--data',
      path.join(root, 'd2'),
      '--workspace',
      badModelWorkspace,
      '--model',
      'nope',
      'hi',
    ]);
    expect(badModel.code).toBe(1);
    expect(badModel.stderr).toMatch(/Model "nope" not found/);
    // Nothing was written for a run that could not start.
    expect(fs.existsSync(path.join(root, 'd2', 'sessions'))).toBe(false);
  });

  it('reads --model as pi does: provider/id, a thinking suffix, and an ambiguous id refused with its candidates', async () => {
    const data = path.join(root, 'd-models');
    fs.mkdirSync(data);
    const lab = (baseUrl: string) => ({
      baseUrl,
      api: 'openai-completions',
      apiKey: 'k',
      models: [{ id: 'twin', reasoning: true }],
    });
    fs.writeFileSync(
      path.join(data, 'models.json'),
      JSON.stringify({
        providers: { east: lab('http://127.0.0.1:9/v1'), west: lab('http://127.0.0.1:9/v1') },
      }),
    );
    const workspace = path.join(root, 'ws-models');
    fs.mkdirSync(workspace);
    const args = ['run', '--data', data, '--workspace', workspace];
    const ambiguous = await arbor([...args, '--model', 'twin', 'hi']);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain(
      'Model "twin" is ambiguous across providers: east/twin, west/twin.',
    );
    expect(fs.existsSync(path.join(data, 'sessions'))).toBe(false);
    // The demo model by its text form, any case, with a suffix its "off" clamps.
    const named = await arbor([...args, '--model', 'ARBOR/arbor-demo:high', 'hi']);
    expect(named.stderr).toBe('');
    expect(named.code).toBe(0);
    const file = fs
      .readdirSync(path.join(data, 'sessions'), { recursive: true, withFileTypes: true })
      .find((entry) => entry.isFile())!;
    const entries = fs
      .readFileSync(path.join(file.parentPath, file.name), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; provider?: string; modelId?: string });
    expect(entries.find((e) => e.type === 'model_change')).toMatchObject({
      provider: 'arbor',
      modelId: 'arbor-demo',
    });
  });

  it("keeps a session's model it cannot call, refusing to run on another unless asked", async () => {
    const workspace = path.join(root, 'ws-claude');
    fs.mkdirSync(workspace);
    const store = SessionStore.create({ cwd: workspace, sessionDir: path.join(root, 'claude') });
    store.appendModelChange('anthropic', 'claude-sonnet-9');
    const file = store.file!;
    store.close();
    const before = fs.readFileSync(file);
    const args = ['run', '--data', path.join(root, 'd3'), '--workspace', workspace];
    const refused = await arbor([...args, '--session', file, 'go on']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      "This session's model anthropic/claude-sonnet-9 is not configured on this server",
    );
    expect(refused.stderr).toContain('--model ID picks one');
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    const chosen = await arbor([...args, '--session', file, '--model', 'arbor-demo', 'go on']);
    expect(chosen.code).toBe(0);
    expect(chosen.stdout).toContain('You said: \\"go on\\"');
  });

  it("refuses a data folder inside the workspace, before the model's tools can edit users.json", async () => {
    const workspace = path.join(root, 'ws-with-data');
    const data = path.join(workspace, '.arbor');
    fs.mkdirSync(data, { recursive: true });
    const users = '{"version":1,"users":[]}\n';
    fs.writeFileSync(path.join(data, 'users.json'), users);
    const edit = JSON.stringify({ path: '.arbor/users.json', content: '{"mallory":"admin"}' });
    const result = await arbor([
      'run',
      '--data',
      data,
      '--workspace',
      workspace,
      `/tool write ${edit}`,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `arbor run: The data folder ${data} (from --data) is inside the workspace ${workspace}.`,
    );
    expect(fs.readFileSync(path.join(data, 'users.json'), 'utf8')).toBe(users);
    expect(fs.existsSync(path.join(data, 'sessions'))).toBe(false);
  });
});
