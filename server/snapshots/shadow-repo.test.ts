import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ShadowRepo, shadowDirOf } from './shadow-repo.js';

/*
 * The shadow repository against the real git: snapshots of a workspace that has its own git
 * repository (left exactly as it was), .gitignore honoured, a size cap, one index per session, and
 * the changes between two snapshots with their line counts.
 */

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function setup() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-shadow-'));
  dirs.push(root);
  const workspace = path.join(root, 'ws');
  const dataDir = path.join(root, 'data');
  fs.mkdirSync(workspace);
  return { workspace, dataDir };
}

const write = (dir: string, file: string, text: string | Buffer) => {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), text);
};

function ownGit(workspace: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd: workspace,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  });
}

describe('the shadow repository', () => {
  it('records the files of each turn and says what changed, with line counts', async () => {
    const { workspace, dataDir } = setup();
    write(workspace, 'src/app.ts', 'one\ntwo\nthree\n');
    write(workspace, 'notes.md', 'hello\n');
    const repo = await ShadowRepo.open({ dataDir, workspace });
    const first = await repo.snapshot('session-a');
    expect(await repo.changes(null, first.tree)).toEqual([
      { path: 'notes.md', kind: 'added', added: 1, removed: 0 },
      { path: 'src/app.ts', kind: 'added', added: 3, removed: 0 },
    ]);

    write(workspace, 'src/app.ts', 'one\n2\nthree\nfour\n');
    fs.rmSync(path.join(workspace, 'notes.md'));
    write(workspace, 'img.bin', Buffer.from([0, 1, 2, 0, 255]));
    write(workspace, 'odd\nname.txt', 'x\n');
    const second = await repo.snapshot('session-a');
    expect(await repo.changes(first.tree, second.tree)).toEqual([
      { path: 'img.bin', kind: 'added', added: null, removed: null },
      { path: 'notes.md', kind: 'deleted', added: 0, removed: 1 },
      { path: 'odd\nname.txt', kind: 'added', added: 1, removed: 0 },
      { path: 'src/app.ts', kind: 'modified', added: 2, removed: 1 },
    ]);
    // Unchanged files make the same tree: a snapshot equal to the last is recognisable.
    expect((await repo.snapshot('session-a')).tree).toBe(second.tree);
    // Every snapshot is kept by a ref of its session.
    expect((await repo.sessionSnapshots('session-a')).sort()).toEqual(
      [...new Set([first.commit, second.commit])].sort(),
    );
  });

  it("leaves the workspace's own repository exactly as it was, and honours its .gitignore", async () => {
    const { workspace, dataDir } = setup();
    ownGit(workspace, 'init', '--quiet');
    write(workspace, '.gitignore', 'build/\n*.log\n');
    write(workspace, 'main.c', 'int main;\n');
    write(workspace, 'build/out.o', 'object');
    write(workspace, 'debug.log', 'noise');
    ownGit(workspace, 'add', 'main.c');
    // A hook in the workspace's repository must never run for a snapshot.
    write(
      workspace,
      '.git/hooks/pre-commit',
      '#!/bin/sh\ntouch "$(dirname "$0")/../../hook-ran"\n',
    );
    fs.chmodSync(path.join(workspace, '.git/hooks/pre-commit'), 0o755);
    const before = {
      index: fs.readFileSync(path.join(workspace, '.git/index')),
      head: fs.readFileSync(path.join(workspace, '.git/HEAD'), 'utf8'),
      status: ownGit(workspace, 'status', '--porcelain'),
    };

    const repo = await ShadowRepo.open({ dataDir, workspace });
    const shot = await repo.snapshot('s1');
    const files = (await repo.changes(null, shot.tree)).map((change) => change.path);
    expect(files).toEqual(['.gitignore', 'main.c']);
    expect(fs.readFileSync(path.join(workspace, '.git/index'))).toEqual(before.index);
    expect(fs.readFileSync(path.join(workspace, '.git/HEAD'), 'utf8')).toBe(before.head);
    expect(ownGit(workspace, 'status', '--porcelain')).toBe(before.status);
    expect(fs.existsSync(path.join(workspace, 'hook-ran'))).toBe(false);
    expect(repo.gitDir).toBe(shadowDirOf(dataDir, workspace));
    expect(repo.gitDir.startsWith(path.join(dataDir, 'snapshots'))).toBe(true);
  });

  it('leaves out a file over the size cap and names it; sessions stage through their own index', async () => {
    const { workspace, dataDir } = setup();
    write(workspace, 'small.txt', 'a\n');
    write(workspace, 'big.dat', Buffer.alloc(64 * 1024, 1));
    const repo = await ShadowRepo.open({ dataDir, workspace, maxFileBytes: 32 * 1024 });
    const [a, b] = await Promise.all([repo.snapshot('one'), repo.snapshot('two')]);
    for (const shot of [a, b]) {
      expect(shot.skipped).toEqual(['big.dat']);
      expect((await repo.changes(null, shot.tree)).map((c) => c.path)).toEqual(['small.txt']);
    }
    expect(a.tree).toBe(b.tree);
    expect(fs.readdirSync(path.join(repo.gitDir, 'arbor-index')).sort()).toEqual(['one', 'two']);
    await repo.forgetSession('one');
    expect(await repo.sessionSnapshots('one')).toEqual([]);
    expect(await repo.sessionSnapshots('two')).toHaveLength(1);
  });
});
