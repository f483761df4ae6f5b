import os from 'node:os';
import { snapshotSpan } from '../agent/turn-snapshots.js';
import { resolveDataDir } from '../config/data-dir.js';
import { ShadowRepo, type FileChange } from '../snapshots/shadow-repo.js';
import { SessionStore } from '../store/session-store.js';
import { parseCommandArgs } from './parse-command-args.js';

const usage = 'Usage: arbor files FILE [--entry ID] [--data DIR]\n';

const KIND_LETTER = { added: 'A', modified: 'M', deleted: 'D' } as const;

function line(change: FileChange): string {
  const counts = change.added === null ? 'binary' : `+${change.added} -${change.removed ?? 0}`;
  return `${KIND_LETTER[change.kind]}  ${counts.padEnd(12)} ${JSON.stringify(change.path).slice(1, -1)}`;
}

/**
 * `arbor files FILE [--entry ID] [--data DIR]`: the files the turn at an entry changed (the whole
 * active branch without `--entry`), one per line: `A|M|D`, lines added and removed, the path.
 * Reads the session without a lock and the workspace's shadow repository in the data folder
 * (decision 121); changes nothing.
 */
export async function runFiles(args: string[]): Promise<number> {
  const parsed = parseCommandArgs('files', usage, args, {
    options: { entry: { type: 'string' }, data: { type: 'string' } },
    positionals: { min: 1, max: 1 },
  });
  if (!parsed.ok) return parsed.status;
  const file = parsed.positionals[0]!;
  const dataDir = resolveDataDir({
    flag: parsed.values.data,
    env: process.env,
    cwd: process.cwd(),
    home: os.homedir(),
  });
  const store = SessionStore.openReadOnly(file);
  try {
    const entry = parsed.values.entry;
    if (entry !== undefined && !store.getNode(entry)) {
      process.stderr.write(`arbor files: no entry "${entry}" in ${store.file}\n`);
      return 1;
    }
    const span = snapshotSpan(store.getBranch(entry ?? store.getLeafId()), entry);
    if (!span) {
      process.stderr.write(
        `arbor files: no snapshot of the workspace's files at or before ${entry ? `entry "${entry}"` : 'the leaf'} (snapshots are on with "snapshots": true in config.json)\n`,
      );
      return 1;
    }
    const repo = await ShadowRepo.open({ dataDir, workspace: store.cwd });
    const changes = await repo.changes(span.from?.tree ?? null, span.to.tree);
    process.stdout.write(changes.map((change) => `${line(change)}\n`).join(''));
    return 0;
  } finally {
    store.close();
  }
}
