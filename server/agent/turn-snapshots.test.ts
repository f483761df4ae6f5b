import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runFiles } from '../cli/files-command.js';
import { ShadowRepo } from '../snapshots/shadow-repo.js';
import { expectSameAsPi16 } from '../store/test-support/pi16-compare.js';
import { startHarness, type Harness } from '../test-support/agent-harness.js';
import { SNAPSHOT_TYPE, type SnapshotData } from './turn-snapshots.js';

/*
 * Each turn's files in the session: a snapshot before a prompt's user message, one after a tool
 * batch that wrote, none when the files are as the path's latest snapshot says; pi 1.6 reads the
 * file to the same context, the snapshots kept and left out of it.
 */

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ prefix: 'arbor-snapshots-' });
});
afterAll(() => h.close());

const warnings: unknown[] = [];
const log = { warn: (details: object) => void warnings.push(details) };

describe('snapshots per turn', () => {
  it('records the files a prompt saw and those its tools left, and pi 1.6 reads the file the same', async () => {
    fs.writeFileSync(path.join(h.workspace, 'plan.md'), 'step one\n');
    const dataDir = path.join(h.root, 'data');
    const { session } = await h.open({ snapshots: { dataDir, log } });
    await session.prompt('/tool write {"path":"garden.txt","content":"tomatoes\\nbasil\\n"}');
    await session.prompt('thanks');

    const kinds = session.store
      .getBranch()
      .map((entry) =>
        entry.type === 'custom'
          ? entry.customType
          : entry.type === 'message'
            ? entry.message.role
            : entry.type,
      )
      .filter((kind) => kind !== 'model_change' && kind !== 'thinking_level_change');
    expect(kinds).toEqual([
      SNAPSHOT_TYPE, // the files the first prompt saw
      'system',
      'user',
      'assistant',
      'toolResult',
      SNAPSHOT_TYPE, // after the write
      'assistant',
      // none before "thanks": the files are as the latest snapshot says
      'user',
      'assistant',
    ]);
    const snapshots = session.store
      .getBranch()
      .flatMap((entry) =>
        entry.type === 'custom' && entry.customType === SNAPSHOT_TYPE
          ? [entry.data as SnapshotData]
          : [],
      );
    const repo = await ShadowRepo.open({ dataDir, workspace: h.workspace });
    expect(await repo.changes(snapshots[0]!.tree, snapshots[1]!.tree)).toEqual([
      { path: 'garden.txt', kind: 'added', added: 2, removed: 0 },
    ]);
    expect((await repo.changes(null, snapshots[0]!.tree)).map((c) => c.path)).toEqual(['plan.md']);
    expect(warnings).toEqual([]);

    // pi 1.6 continues such a file with the same context at every entry.
    await expectSameAsPi16(session.store.file!);
  });

  it('never stops a run when a snapshot cannot be taken, and says so once', async () => {
    const dataFile = path.join(h.root, 'not-a-folder');
    fs.writeFileSync(dataFile, 'a file where the data folder should be');
    const { session } = await h.open({ snapshots: { dataDir: dataFile, log } });
    warnings.length = 0;
    await session.prompt('/tool write {"path":"x.txt","content":"x"}');
    await session.prompt('again');
    expect(
      session.store.getBranch().some((e) => e.type === 'custom' && e.customType === SNAPSHOT_TYPE),
    ).toBe(false);
    expect(
      session.store
        .getBranch()
        .filter((e) => e.type === 'message' && e.message.role === 'assistant'),
    ).toHaveLength(3);
    expect(warnings).toHaveLength(1);
  });

  it('`arbor files` lists what a turn changed, and the whole branch, and refuses a point without one', async () => {
    const dataDir = path.join(h.root, 'data-files');
    const { session } = await h.open({ snapshots: { dataDir, log } });
    fs.writeFileSync(path.join(h.workspace, 'old.txt'), 'a\nb\n');
    await session.prompt('/tool write {"path":"new.txt","content":"one\\ntwo\\nthree\\n"}');
    await session.prompt('/tool bash {"command":"rm old.txt"}');
    const file = session.store.file!;
    const answers = session.store
      .getBranch()
      .filter((e) => e.type === 'message' && e.message.role === 'assistant');
    const cli = async (...args: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((text) => {
        out.push(String(text));
        return true;
      });
      const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((text) => {
        err.push(String(text));
        return true;
      });
      try {
        const status = await runFiles(args);
        return { status, stdout: out.join(''), stderr: err.join('') };
      } finally {
        stdout.mockRestore();
        stderr.mockRestore();
      }
    };
    // The first turn's tool call wrote new.txt; the second's removed old.txt.
    const first = await cli(file, '--data', dataDir, '--entry', answers[1]!.id);
    expect(first).toMatchObject({ status: 0, stdout: 'A  +3 -0        new.txt\n' });
    const second = await cli(file, '--data', dataDir, '--entry', answers[3]!.id);
    expect(second.stdout).toBe('D  +0 -2        old.txt\n');
    const branch = await cli(file, '--data', dataDir);
    expect(branch.stdout).toBe('A  +3 -0        new.txt\nD  +0 -2        old.txt\n');
    const unknown = await cli(file, '--data', dataDir, '--entry', 'nope');
    expect(unknown).toMatchObject({
      status: 1,
      stderr: expect.stringContaining('no entry "nope"'),
    });
    const root = session.store.getBranch()[0]!.id;
    const before = await cli(file, '--data', dataDir, '--entry', root);
    expect(before).toMatchObject({ status: 1, stderr: expect.stringContaining('no snapshot') });
  });
});
