import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { removeToolOutputRoot } from './tool-output-dir.js';
import type { AnyAgentTool, ToolResultValue } from './tool-types.js';
import { createBashTool } from './bash-tool.js';
import { createTools } from './create-tools.js';
import { bashAs } from './test-support/bash-as.js';
import { requireSandbox } from './test-support/require-sandbox.js';

// Needs bubblewrap and user namespaces; says what to install when they are missing.
beforeAll(requireSandbox);

// Worker threads end without an exit event: the logs of this file go with it.
afterAll(removeToolOutputRoot);

let base: string;
let workspace: string;
let outside: string;

beforeEach(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-bash-'));
  workspace = path.join(base, 'ws');
  outside = path.join(base, 'outside');
  fs.mkdirSync(workspace);
  fs.mkdirSync(outside);
});
afterEach(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

function bash(policy: 'sandboxed' | 'unsandboxed', network = false): AnyAgentTool {
  const tool = createTools(workspace, { bash: policy, network }).get('bash');
  if (!tool) throw new Error('bash missing');
  return tool;
}

async function run(
  tool: AnyAgentTool,
  args: unknown,
  opts: { signal?: AbortSignal; updates?: ToolResultValue[] } = {},
): Promise<string> {
  const result = await tool.execute(tool.parse(args), {
    signal: opts.signal ?? new AbortController().signal,
    onUpdate: (partial) => opts.updates?.push(partial),
  });
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

/** True while the process exists and is not a zombie waiting for its reaper. */
function isRunning(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

describe('bash', () => {
  it('runs in the workspace and returns output', async () => {
    expect(await run(bash('unsandboxed'), { command: 'pwd; echo hi >&2' })).toBe(
      `${fs.realpathSync(workspace)}\nhi\n`,
    );
  });

  it('reports a non-zero exit code as an error with the output', async () => {
    await expect(run(bash('unsandboxed'), { command: 'echo partial; exit 3' })).rejects.toThrow(
      'partial\n\n\nCommand exited with code 3',
    );
  });

  it('streams output while the command runs', async () => {
    const updates: ToolResultValue[] = [];
    await run(bash('unsandboxed'), { command: 'echo first; sleep 0.3; echo second' }, { updates });
    const texts = updates.map((u) => (u.content[0]?.type === 'text' ? u.content[0].text : ''));
    // The first update arrives while the command is still sleeping.
    expect(texts[0]).toBe('first\n');
  });

  it('times out and kills the command', async () => {
    await expect(run(bash('unsandboxed'), { command: 'sleep 20', timeout: 0.3 })).rejects.toThrow(
      'Command timed out after 0.3 seconds',
    );
  });

  it('abort kills the whole process group, children included', async () => {
    const pidFile = path.join(workspace, 'child.pid');
    const controller = new AbortController();
    const running = run(
      bash('unsandboxed'),
      { command: `(sleep 30 & echo $! > ${pidFile}; wait)` },
      { signal: controller.signal },
    );
    while (!fs.existsSync(pidFile) || fs.readFileSync(pidFile, 'utf8').trim() === '')
      await new Promise((resolve) => setTimeout(resolve, 20));
    const childPid = Number(fs.readFileSync(pidFile, 'utf8'));
    controller.abort();
    await expect(running).rejects.toThrow('Command aborted');
    let alive = true;
    for (let i = 0; i < 50 && alive; i++) {
      alive = isRunning(childPid);
      if (alive) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(alive).toBe(false);
  });

  it('keeps the tail of long output and the full text in a file', async () => {
    const out = await run(bash('unsandboxed'), { command: 'seq 1 5000' });
    expect(out).toMatch(/^3002\n/);
    const note = /\[Showing lines 3002-5001 of 5001\. Full output: (.+)\]$/.exec(out);
    expect(note).not.toBeNull();
    const full = fs.readFileSync(note![1]!, 'utf8');
    expect(full.split('\n').length).toBe(5001);
    expect(full.startsWith('1\n2\n')).toBe(true);
  });

  it('keeps at most the first bytes of a flood, and a bounded folder per session', async () => {
    const MiB = 1024 * 1024;
    const tool = createBashTool(fs.realpathSync(workspace), {
      mode: 'unsandboxed',
      outputLimits: { commandBytes: MiB, sessionBytes: 2.5 * MiB },
    });
    const logs: string[] = [];
    for (let i = 0; i < 4; i++) {
      // Before, the whole flood went to the log: `yes | head -c 2G` left 2 GiB there.
      const out = await run(tool, { command: 'yes | head -c 5000000' });
      const log = /The first 1 MiB of the output: (.+)\]$/.exec(out)?.[1];
      expect(log).toBeDefined();
      logs.push(log!);
      const text = fs.readFileSync(log!, 'utf8');
      expect(text.startsWith('y\ny\n')).toBe(true);
      expect(text.endsWith('\n[Arbor kept only the first 1 MiB of this output.]\n')).toBe(true);
      expect(fs.statSync(log!).size).toBeLessThan(MiB + 100);
    }
    const folder = path.dirname(logs[0]!);
    const kept = fs.readdirSync(folder);
    // The two newest fit in 2.5 MiB; the older ones made room for them.
    expect(kept.sort()).toEqual(
      logs
        .slice(2)
        .map((log) => path.basename(log))
        .sort(),
    );
    tool.dispose();
    expect(fs.existsSync(folder)).toBe(false);
  });

  it('still answers, without naming a file, when the full output cannot be saved', async () => {
    // A file where the temp folder should be: no log folder can be made.
    const notAFolder = path.join(base, 'not-a-folder');
    fs.writeFileSync(notAFolder, 'not a folder');
    for (const mode of ['unsandboxed', 'sandboxed'] as const) {
      const result = await bashAs('server user', {
        workspace: fs.realpathSync(workspace),
        options: { mode },
        command: 'seq 1 5000',
        tmpdir: notAFolder,
      });
      expect(result.ok).toBe(true);
      expect(result.text).toMatch(/^3002\n/);
      expect(result.text).toMatch(
        /\[Showing lines 3002-5001 of 5001\. The full output could not be saved\]$/,
      );
    }
  }, 60_000);

  it('treats a timeout too long for a timer as the longest timeout', async () => {
    expect(await run(bash('unsandboxed'), { command: 'echo done', timeout: 1e10 })).toBe('done\n');
  });

  it('gives a command without a timeout the default one, and caps a longer one', async () => {
    for (const mode of ['unsandboxed', 'sandboxed'] as const) {
      const tool = createBashTool(fs.realpathSync(workspace), {
        mode,
        timeouts: { defaultSeconds: 0.3, maxSeconds: 0.6 },
      });
      expect(tool.spec.description).toContain('(default 0.3, at most 0.6)');
      await expect(run(tool, { command: 'sleep 20' })).rejects.toThrow(
        'Command timed out after 0.3 seconds',
      );
      await expect(run(tool, { command: 'sleep 20', timeout: 100 })).rejects.toThrow(
        'Command timed out after 0.6 seconds',
      );
    }
  });

  it("gives commands the machine's PATH, without the node_modules/.bin that npm put first", async () => {
    const saved = process.env.PATH;
    process.env.PATH = `${path.join(base, 'node_modules', '.bin')}:/usr/bin:/node_modules/.bin/:/bin`;
    try {
      expect(await run(bash('unsandboxed'), { command: 'echo "$PATH"' })).toBe('/usr/bin:/bin\n');
    } finally {
      process.env.PATH = saved;
    }
  });

  it('does not pass server secrets to commands', async () => {
    process.env.ARBOR_TEST_SECRET_KEY = 'sk-should-not-leak';
    try {
      expect(await run(bash('unsandboxed'), { command: 'env' })).not.toContain(
        'sk-should-not-leak',
      );
    } finally {
      delete process.env.ARBOR_TEST_SECRET_KEY;
    }
  });

  it('is absent when the policy turns it off, and refuses to run unsandboxed without bwrap', async () => {
    expect(createTools(workspace, { bash: 'off' }).has('bash')).toBe(false);
    const tool = createTools(workspace, { bash: 'sandboxed' }, { bwrapPath: null }).get('bash')!;
    await expect(run(tool, { command: 'echo hi' })).rejects.toThrow(
      /sandbox \(bubblewrap\) is not installed/,
    );
  });
});

describe('bash in the sandbox', () => {
  it('can write in the workspace but not outside it', async () => {
    const tool = bash('sandboxed');
    await run(tool, { command: 'echo inside > inside.txt' });
    expect(fs.readFileSync(path.join(workspace, 'inside.txt'), 'utf8')).toBe('inside\n');
    const target = path.join(outside, 'escaped.txt');
    await expect(run(tool, { command: `echo x > ${target}` })).rejects.toThrow(
      /Read-only file system|exited/,
    );
    await expect(
      run(tool, { command: `touch ${os.homedir()}/arbor-sandbox-probe` }),
    ).rejects.toThrow();
    expect(fs.existsSync(target)).toBe(false);
    expect(fs.existsSync(path.join(os.homedir(), 'arbor-sandbox-probe'))).toBe(false);
  });

  it("reads its own session's full output, but not another session's", async () => {
    const mine = bash('sandboxed');
    const out = await run(mine, { command: 'seq 1 5000' });
    const full = /Full output: (.+)\]$/.exec(out)![1]!;
    expect(await run(mine, { command: `wc -l < ${full}` })).toBe('5000\n');
    await expect(run(mine, { command: `echo x >> ${full}` })).rejects.toThrow(/Read-only/);
    const theirs = bash('sandboxed');
    await expect(run(theirs, { command: `cat ${full}` })).rejects.toThrow(
      /No such file or directory/,
    );
    expect(fs.readFileSync(full, 'utf8').split('\n').length).toBe(5001);
  });

  it('has no network unless allowed', async () => {
    const server = net.createServer((socket) => socket.end('hello from host\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const probe = `exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3`;
    try {
      await expect(run(bash('sandboxed'), { command: probe, timeout: 5 })).rejects.toThrow(
        /exited with code/,
      );
      expect(await run(bash('unsandboxed'), { command: probe, timeout: 5 })).toBe(
        'hello from host\n',
      );
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
