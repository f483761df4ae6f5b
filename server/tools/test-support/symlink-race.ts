import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { ToolResultValue } from '../tool-types.js';
import { createTools } from '../create-tools.js';

/*
 * The check-then-use attack on the file tools, performed for real: a separate process exchanges,
 * in a tight loop with renameat2(RENAME_EXCHANGE), a directory inside the workspace with a
 * symbolic link to a directory outside it (and a file with a link to an outside file), while the
 * tools read, write, edit, list, grep and find through those paths. Outside, a "data folder"
 * holds a users file and a marker; the report counts every tool result that showed outside
 * content and every change that landed outside.
 */

/** What one run of the attack saw. */
export interface RaceReport {
  /** Tool calls made while the swapper ran. */
  calls: number;
  /** Exchanges the swapper made (proof that it ran). */
  swaps: number;
  /** Results of read and grep that showed outside content. */
  outsideReads: number;
  /** Results of ls and find that showed an outside directory's entries. */
  outsideListings: number;
  /** What changed outside: new entries, and files whose content or mtime changed. */
  outsideWrites: string[];
  /** Calls that succeeded, and calls that failed (refused, not found, raced). */
  succeeded: number;
  failed: number;
  /** How the failed calls failed (numbers and quoted paths masked). */
  failures: Record<string, number>;
}

const OUTSIDE_USERS = '{"mallory": {"role": "member"}} OUTSIDE\n';
const INSIDE_USERS = '{"mallory": {"role": "member"}} INSIDE\n';

/*
 * Exchanges each pair of paths over and over; prints "ready" once, and on SIGTERM (or when its
 * parent is gone) prints how many exchanges it made.
 */
const SWAPPER = String.raw`
import ctypes, os, signal, sys
libc = ctypes.CDLL(None, use_errno=True)
renameat2 = libc.renameat2
renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
AT_FDCWD, RENAME_EXCHANGE = -100, 2
pairs = [(a.encode(), b.encode()) for a, b in zip(sys.argv[1::2], sys.argv[2::2])]
parent = os.getppid()
swaps = 0
stop = False
def on_term(*_):
    global stop
    stop = True
signal.signal(signal.SIGTERM, on_term)
print("ready", flush=True)
while not stop:
    for a, b in pairs:
        if renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) != 0:
            sys.exit("renameat2 failed: " + os.strerror(ctypes.get_errno()))
        swaps += 1
    if swaps % 4096 == 0 and os.getppid() != parent:
        break
print(swaps, flush=True)
`;

function startSwapper(
  pairs: [string, string][],
): Promise<{ child: ChildProcess; stop: () => Promise<number> }> {
  const child = spawn('python3', ['-c', SWAPPER, ...pairs.flat()], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', () => {
      const swaps = Number(out.split('\n')[1]);
      if (Number.isFinite(swaps) && swaps > 0) resolve(swaps);
      else reject(new Error(`the swapper failed: ${err || out}`));
    });
  });
  return new Promise((resolve, reject) => {
    exited.catch(reject);
    child.stdout!.on('data', () => {
      if (out.startsWith('ready\n'))
        resolve({
          child,
          stop: () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
    });
  });
}

interface Snapshot {
  [name: string]: { content: string; mtimeMs: number };
}

function snapshot(dir: string): Snapshot {
  const out: Snapshot = {};
  const visit = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      const name = path.join(relative, entry.name);
      const full = path.join(dir, name);
      if (entry.isDirectory()) {
        out[`${name}/`] = { content: '', mtimeMs: fs.lstatSync(full).mtimeMs };
        visit(name);
      } else
        out[name] = { content: fs.readFileSync(full, 'utf8'), mtimeMs: fs.lstatSync(full).mtimeMs };
    }
  };
  visit('');
  return out;
}

function text(result: ToolResultValue): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

/**
 * Runs the attack under `base` (which must be empty and writable): `rounds` rounds of nine
 * concurrent tool calls while the swapper runs.
 */
export async function runSymlinkRace(base: string, rounds: number): Promise<RaceReport> {
  const workspace = path.join(base, 'ws');
  const data = path.join(base, 'data');
  fs.mkdirSync(path.join(workspace, 'd'), { recursive: true });
  fs.mkdirSync(path.join(data, 'users'), { recursive: true });
  fs.writeFileSync(path.join(workspace, 'd/users.json'), INSIDE_USERS);
  fs.writeFileSync(path.join(workspace, 'f.json'), INSIDE_USERS);
  fs.writeFileSync(path.join(data, 'users/users.json'), OUTSIDE_USERS);
  fs.writeFileSync(path.join(data, 'users/outside-only.marker'), 'OUTSIDE marker\n');
  fs.writeFileSync(path.join(data, 'top.json'), OUTSIDE_USERS);
  fs.symlinkSync(path.join(data, 'users'), path.join(workspace, 'dlink'));
  fs.symlinkSync(path.join(data, 'top.json'), path.join(workspace, 'flink'));
  const before = snapshot(data);

  const tools = createTools(workspace, { bash: 'off' });
  const call = async (name: string, args: unknown): Promise<string | undefined> => {
    const tool = tools.get(name)!;
    try {
      const result = await tool.execute(tool.parse(args), {
        signal: new AbortController().signal,
        onUpdate: () => {},
      });
      report.succeeded++;
      return text(result);
    } catch (error) {
      report.failed++;
      const reason = (error instanceof Error ? error.message : String(error))
        .replace(/"[^"]*"/g, '"…"')
        .replace(/\d+/g, 'N');
      report.failures[reason] = (report.failures[reason] ?? 0) + 1;
      return undefined;
    } finally {
      report.calls++;
    }
  };
  const report: RaceReport = {
    calls: 0,
    swaps: 0,
    outsideReads: 0,
    outsideListings: 0,
    outsideWrites: [],
    succeeded: 0,
    failed: 0,
    failures: {},
  };
  const sawRead = (out: string | undefined) => {
    if (out?.includes('OUTSIDE')) report.outsideReads++;
  };
  const sawListing = (out: string | undefined) => {
    if (out?.includes('outside-only')) report.outsideListings++;
  };

  const swapper = await startSwapper([
    [path.join(workspace, 'd'), path.join(workspace, 'dlink')],
    [path.join(workspace, 'f.json'), path.join(workspace, 'flink')],
  ]);
  try {
    for (let i = 0; i < rounds; i++) {
      await Promise.all([
        call('read', { path: 'd/users.json' }).then(sawRead),
        call('read', { path: 'f.json' }).then(sawRead),
        call('write', { path: 'd/users.json', content: INSIDE_USERS }),
        call('write', { path: `d/new-${i}.txt`, content: 'written\n' }),
        call('write', { path: `d/sub-${i}/deep/new.txt`, content: 'written\n' }),
        call('edit', {
          path: i % 2 === 0 ? 'd/users.json' : 'f.json',
          edits: [{ oldText: '"member"', newText: '"admin"' }],
        }),
        call('ls', { path: 'd' }).then(sawListing),
        i % 4 === 0 ? call('grep', { pattern: 'OUTSIDE', path: 'd' }).then(sawRead) : undefined,
        i % 4 === 2 ? call('find', { pattern: '*', path: 'd' }).then(sawListing) : undefined,
      ]);
    }
  } finally {
    report.swaps = await swapper.stop();
  }

  const after = snapshot(data);
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const was = before[name];
    const now = after[name];
    if (!was) report.outsideWrites.push(`created ${name}`);
    else if (!now) report.outsideWrites.push(`removed ${name}`);
    else if (was.content !== now.content || (!name.endsWith('/') && was.mtimeMs !== now.mtimeMs))
      report.outsideWrites.push(`changed ${name}`);
  }
  return report;
}
