import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AnyAgentTool, ToolResultValue } from './tool-types.js';
import { createTools } from './create-tools.js';
import { activeGrepWorkers } from './grep-runner.js';
import { createGrepTool } from './grep-tool.js';
import { openInWorkspace, realWorkspace } from './workspace-path.js';

/*
 * How file tools resolve paths from held directory descriptors (decision 051): links inside the
 * workspace work as before, anything leading outside is refused, special files never block the
 * server, and no descriptor is left open — not even by a grep stopped mid-walk.
 */

let base: string;
let workspace: string;
let root: string;
let outside: string;
let tools: Map<string, AnyAgentTool>;

beforeEach(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-wspath-'));
  workspace = path.join(base, 'ws');
  outside = path.join(base, 'outside');
  fs.mkdirSync(path.join(workspace, 'src/deep'), { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'top secret\n');
  fs.writeFileSync(path.join(workspace, 'src/deep/code.ts'), 'const x = 1;\n');
  root = realWorkspace(workspace);
  tools = createTools(workspace, { bash: 'off' });
});
afterEach(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

async function call(name: string, args: unknown, signal = new AbortController().signal) {
  const tool = tools.get(name)!;
  const result: ToolResultValue = await tool.execute(tool.parse(args), {
    signal,
    onUpdate: () => {},
  });
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

function link(target: string, at: string): void {
  fs.symlinkSync(target, path.join(workspace, at));
}

/** Descriptors of this process that refer to anything under the test's folder. */
function descriptorsUnderBase(): string[] {
  const open: string[] = [];
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      const target = fs.readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith(base)) open.push(`${fd} -> ${target}`);
    } catch {
      // closed meanwhile (the directory listing's own descriptor)
    }
  }
  return open;
}

describe('links inside the workspace', () => {
  it('are followed: relative, absolute inside, and through several hops', async () => {
    link('src/deep', 'rel');
    link(path.join(root, 'src'), 'abs');
    link('abs/deep/../deep', 'chain');
    expect(await call('read', { path: 'rel/code.ts' })).toBe('const x = 1;\n');
    expect(await call('read', { path: 'abs/deep/code.ts' })).toBe('const x = 1;\n');
    expect(await call('read', { path: 'chain/code.ts' })).toBe('const x = 1;\n');
    expect(await call('ls', { path: 'chain' })).toBe('code.ts');
    expect(await call('ls', {})).toBe('abs/\nchain/\nrel/\nsrc/');
    // Results name the file where it really is.
    expect(await call('write', { path: 'rel/new.txt', content: 'n' })).toBe(
      'Successfully wrote 1 bytes to src/deep/new.txt',
    );
    expect(await call('edit', { path: 'chain/code.ts', oldText: '1', newText: '2' })).toBe(
      'Successfully replaced 1 block(s) in src/deep/code.ts.',
    );
    expect(fs.readFileSync(path.join(workspace, 'src/deep/code.ts'), 'utf8')).toBe(
      'const x = 2;\n',
    );
    expect(fs.lstatSync(path.join(workspace, 'chain')).isSymbolicLink()).toBe(true);
  });

  it('an absolute path through a link to the workspace is mapped inside', async () => {
    const alias = path.join(base, 'alias');
    fs.symlinkSync(workspace, alias);
    expect(await call('read', { path: path.join(alias, 'src/deep/code.ts') })).toBe(
      'const x = 1;\n',
    );
  });
});

describe('links leading outside', () => {
  it('are refused however they get there', async () => {
    link('../outside', 'up');
    link('src/../../outside/secret.txt', 'updeep');
    link(outside, 'abs');
    link(path.join(root, '..', 'outside'), 'absdots');
    fs.symlinkSync('../../../outside', path.join(workspace, 'src/deep/up2'));
    for (const target of ['up/secret.txt', 'updeep', 'abs/secret.txt', 'src/deep/up2/secret.txt'])
      await expect(call('read', { path: target })).rejects.toThrow(
        `Path "${target}" is outside the workspace`,
      );
    await expect(call('read', { path: 'absdots/secret.txt' })).rejects.toThrow(
      /outside the workspace/,
    );
    await expect(call('write', { path: 'updeep', content: 'x' })).rejects.toThrow(
      /outside the workspace/,
    );
    await expect(call('write', { path: 'src/deep/up2/new/x.txt', content: 'x' })).rejects.toThrow(
      /outside the workspace/,
    );
    expect(fs.readdirSync(outside)).toEqual(['secret.txt']);
    expect(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('top secret\n');
  });

  it('a loop of links ends with a clear error', async () => {
    link('b', 'a');
    link('a', 'b');
    await expect(call('read', { path: 'a' })).rejects.toThrow(
      'Path "a" has too many levels of symbolic links',
    );
  });

  it('a file is not a directory', async () => {
    await expect(call('read', { path: 'src/deep/code.ts/x' })).rejects.toThrow(
      'File not found: src/deep/code.ts/x',
    );
    await expect(call('write', { path: 'src/deep/code.ts/x', content: '' })).rejects.toThrow(
      'Cannot create src/deep/code.ts/x: code.ts is not a directory',
    );
  });
});

describe('special files', () => {
  it('a named pipe is refused by read, edit, write and grep without blocking', async () => {
    const made = spawnSync('mkfifo', [path.join(workspace, 'pipe')]);
    expect(made.status).toBe(0);
    await expect(call('read', { path: 'pipe' })).rejects.toThrow('pipe is not a regular file');
    await expect(call('edit', { path: 'pipe', oldText: 'a', newText: 'b' })).rejects.toThrow(
      'Cannot read pipe: it is not a regular file',
    );
    // No reader: the kernel refuses a non-blocking open for writing.
    await expect(call('write', { path: 'pipe', content: 'x' })).rejects.toThrow(/Cannot open pipe/);
    expect(await call('grep', { pattern: 'zzz' })).toBe('No matches found');
    expect(await call('grep', { pattern: 'zzz', path: 'pipe' })).toBe('No matches found');
  });
});

describe('edit', () => {
  it('replaces the file atomically, keeping its mode and leaving nothing beside it', async () => {
    const file = path.join(workspace, 'src/deep/run.sh');
    fs.writeFileSync(file, 'echo one\n');
    fs.chmodSync(file, 0o754);
    await call('edit', { path: 'src/deep/run.sh', oldText: 'one', newText: 'two' });
    expect(fs.readFileSync(file, 'utf8')).toBe('echo two\n');
    expect(fs.statSync(file).mode & 0o7777).toBe(0o754);
    expect(fs.readdirSync(path.join(workspace, 'src/deep')).sort()).toEqual(['code.ts', 'run.sh']);
  });
});

describe('descriptors', () => {
  it('are all closed after every kind of call, failed and aborted ones included', async () => {
    link('src', 'in');
    link(outside, 'out');
    for (let i = 0; i < 30; i++) {
      fs.mkdirSync(path.join(workspace, `tree/d${i}/e`), { recursive: true });
      fs.writeFileSync(path.join(workspace, `tree/d${i}/e/f.txt`), `needle ${i}\n`);
    }
    const settle = (promise: Promise<unknown>) => promise.catch(() => undefined);
    await Promise.all([
      settle(call('read', { path: 'in/deep/code.ts' })),
      settle(call('read', { path: 'out/secret.txt' })),
      settle(call('read', { path: 'nope/x' })),
      settle(call('write', { path: 'in/new/a/b.txt', content: 'x' })),
      settle(call('write', { path: 'out/x.txt', content: 'x' })),
      settle(call('edit', { path: 'in/deep/code.ts', oldText: 'x', newText: 'y' })),
      settle(call('edit', { path: 'in/deep/code.ts', oldText: 'absent', newText: 'y' })),
      settle(call('ls', { path: 'in' })),
      settle(call('ls', { path: 'out' })),
      settle(call('find', { pattern: '*.txt', limit: 3 })),
      settle(call('grep', { pattern: 'needle', limit: 3 })),
      settle(call('grep', { pattern: 'needle', path: 'out' })),
    ]);
    const aborted = new AbortController();
    aborted.abort();
    await settle(call('find', { pattern: '*' }, aborted.signal));
    expect(descriptorsUnderBase()).toEqual([]);
  });

  it('held by a grep stopped mid-walk are closed once its worker is gone', async () => {
    // Deep directories, held open while the pattern backtracks on the deepest file.
    const deep = path.join(workspace, 'a/b/c/d/e/f/g/h');
    fs.mkdirSync(deep, { recursive: true });
    fs.writeFileSync(path.join(deep, 'slow.txt'), `${'a'.repeat(48)}b\n`);
    const grep = createGrepTool(root, { timeBudgetMs: 800 });
    await expect(
      grep.execute(grep.parse({ pattern: '(a+)+$' }), {
        signal: new AbortController().signal,
        onUpdate: () => {},
      }),
    ).rejects.toThrow(/^grep stopped/);
    expect(activeGrepWorkers()).toBe(0);
    expect(descriptorsUnderBase()).toEqual([]);
  });

  it('an entry opened directly closes everything it held', () => {
    const entry = openInWorkspace(root, 'src/deep/code.ts');
    expect(entry.shown).toBe('src/deep/code.ts');
    expect(descriptorsUnderBase().length).toBeGreaterThan(0);
    entry.close();
    expect(descriptorsUnderBase()).toEqual([]);
  });
});

describe('a process swapping a file for a link while grep walks', () => {
  it('never shows the outside file', async () => {
    // Files, each exchanged in turn with a link to the secret while grep searches them.
    const names = Array.from({ length: 4 }, (_, i) => `f${i}.txt`);
    for (const name of names) {
      fs.writeFileSync(path.join(workspace, 'src', name), 'inside\n');
      fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(workspace, 'src', `${name}.l`));
    }
    const script = String.raw`
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
pairs = [(a.encode(), (a + ".l").encode()) for a in sys.argv[1:]]
print("ready", flush=True)
while True:
    for a, b in pairs:
        libc.renameat2(-100, a, -100, b, 2)
`;
    const swapper = spawn(
      'python3',
      ['-c', script, ...names.map((name) => path.join(workspace, 'src', name))],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await new Promise((resolve) => swapper.stdout.once('data', resolve));
      let shown = 0;
      for (let i = 0; i < 100; i++) {
        const whole = await call('grep', { pattern: 'secret', path: 'src' });
        const one = await call('grep', { pattern: 'secret', path: 'src/f0.txt' }).catch(String);
        if (whole.includes('top secret')) shown++;
        if (one.includes('top secret')) shown++;
      }
      expect(shown).toBe(0);
    } finally {
      swapper.kill('SIGKILL');
    }
  }, 60_000);
});
