import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolResultValue } from './tool-types.js';
import { activeGrepWorkers, grepWorkerCounts } from './grep-runner.js';
import { createGrepTool, type GrepToolOptions } from './grep-tool.js';
import { realWorkspace } from './workspace-path.js';

let base: string;
let workspace: string;

beforeEach(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-grep-'));
  workspace = path.join(base, 'ws');
  fs.mkdirSync(workspace);
});
afterEach(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

/** A line on which `(a+)+$` backtracks through every way of splitting the a's. */
const PATHOLOGICAL_LINE = `${'a'.repeat(48)}b`;
const PATHOLOGICAL_PATTERN = '(a+)+$';

function write(relative: string, content: string | Buffer): void {
  const file = path.join(workspace, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

async function grep(
  args: Record<string, unknown>,
  opts: GrepToolOptions = {},
  signal = new AbortController().signal,
): Promise<string> {
  const tool = createGrepTool(realWorkspace(workspace), opts);
  const result: ToolResultValue = await tool.execute(tool.parse(args), {
    signal,
    onUpdate: () => {},
  });
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

/** Counts ticks of a main-thread interval while `work` runs. */
async function ticksDuring<T>(work: Promise<T>): Promise<{ ticks: number; settled: T | Error }> {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 5);
  try {
    const settled = await work.then(
      (value) => value,
      (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
    );
    return { ticks, settled };
  } finally {
    clearInterval(timer);
  }
}

describe('grep workers', () => {
  it('reuse the worker of a finished search for the next one', async () => {
    write('a.txt', 'needle one\n');
    write('b.txt', 'needle two\n');
    expect(await grep({ pattern: 'needle' })).toContain('needle one');
    const before = grepWorkerCounts();
    expect(before.idle).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) expect(await grep({ pattern: 'two' })).toContain('b.txt');
    expect(grepWorkerCounts().started).toBe(before.started);
    expect(activeGrepWorkers()).toBe(0);
  });

  it('start afresh after a search was stopped, and the stopped worker is not reused', async () => {
    write('slow.txt', `${PATHOLOGICAL_LINE}\n`);
    write('fine.txt', 'plain text\n');
    const stopped = await grep({ pattern: PATHOLOGICAL_PATTERN }, { timeBudgetMs: 300 }).catch(
      (error: unknown) => String(error),
    );
    expect(stopped).toMatch(/took longer than/);
    expect(activeGrepWorkers()).toBe(0);
    expect(await grep({ pattern: 'plain' })).toContain('fine.txt');
  });
});

describe('grep with a pattern that backtracks catastrophically', () => {
  it('returns a clear error once its budget runs out, while the main thread keeps running', async () => {
    write('b.txt', `${PATHOLOGICAL_LINE}\n`);
    const { ticks, settled } = await ticksDuring(
      grep({ pattern: PATHOLOGICAL_PATTERN }, { timeBudgetMs: 1500 }),
    );
    expect(settled).toBeInstanceOf(Error);
    expect((settled as Error).message).toMatch(
      /^grep stopped: the pattern took longer than 1\.5 s to match, so the search was cancelled\./,
    );
    // Had the regex run on this thread, no interval tick could have run before it settled.
    expect(ticks).toBeGreaterThan(1);
    expect(activeGrepWorkers()).toBe(0);
  });

  it('keeps the matches found before it stopped', async () => {
    write('a.txt', 'one\nxaa\n');
    write('b.txt', `${PATHOLOGICAL_LINE}\n`);
    await expect(grep({ pattern: PATHOLOGICAL_PATTERN }, { timeBudgetMs: 1500 })).rejects.toThrow(
      /\n\nMatches found before it stopped \(the search is incomplete\):\na\.txt:2: xaa$/,
    );
  });

  it('stops when the tool is aborted and leaves no worker running', async () => {
    write('b.txt', `${PATHOLOGICAL_LINE}\n`);
    const controller = new AbortController();
    const search = grep(
      { pattern: PATHOLOGICAL_PATTERN },
      { timeBudgetMs: 600_000 },
      controller.signal,
    );
    while (activeGrepWorkers() === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    await expect(search).rejects.toThrow(/^Search aborted$/);
    expect(activeGrepWorkers()).toBe(0);
  });

  it('is not started when the signal has already aborted', async () => {
    write('b.txt', 'match\n');
    const controller = new AbortController();
    controller.abort();
    await expect(grep({ pattern: 'match' }, {}, controller.signal)).rejects.toThrow(
      /^Search aborted$/,
    );
  });

  it('a glob that would backtrack catastrophically is matched well within the budget', async () => {
    write(`${'a'.repeat(60)}.txt`, 'hit\n');
    const glob = `${'*a'.repeat(30)}*b`;
    // A backtracking engine takes ages on this; RE2's answers at once, so the budget never runs out.
    expect(await grep({ pattern: 'hit', glob }, { timeBudgetMs: 1500 })).toBe('No matches found');
    expect(await grep({ pattern: 'hit', glob: `${'*a'.repeat(30)}*` })).toContain(':1: hit');
  });
});

describe('grep output', () => {
  it('shows context lines with separators between distant matches', async () => {
    write('f.txt', ['a', 'hit 1', 'b', 'c', 'd', 'e', 'hit 2', 'f'].join('\n'));
    expect(await grep({ pattern: 'hit', context: 1 })).toBe(
      [
        'f.txt-1- a',
        'f.txt:2: hit 1',
        'f.txt-3- b',
        '--',
        'f.txt-6- e',
        'f.txt:7: hit 2',
        'f.txt-8- f',
      ].join('\n'),
    );
  });

  it('stops at the match limit with pi’s notice', async () => {
    write('f.txt', Array.from({ length: 5 }, (_, i) => `hit ${i}`).join('\n'));
    expect(await grep({ pattern: 'hit', limit: 2 })).toBe(
      'f.txt:1: hit 0\nf.txt:2: hit 1\n\n[2 matches limit reached. Use limit=4 for more, or refine pattern]',
    );
  });

  it('cuts long lines and caps the output at 50 KB, saying so', async () => {
    const lines = Array.from({ length: 150 }, (_, i) => `hit ${i} ${'x'.repeat(600)}`);
    write('wide.txt', lines.join('\n'));
    const out = await grep({ pattern: 'hit', limit: 1000 });
    expect(out).toContain(`wide.txt:1: hit 0 ${'x'.repeat(494)}... [truncated]`);
    expect(out).toMatch(
      /\n\n\[50\.0KB limit reached\. Some lines truncated to 500 chars\. Use read tool to see full lines\]$/,
    );
    expect(Buffer.byteLength(out)).toBeLessThan(51 * 1024);
  });

  it('searches one file, literally, and skips binary files', async () => {
    write('f.txt', 'a.b\naxb\n');
    write('bin.dat', Buffer.from([0x61, 0x2e, 0x62, 0x00, 0x01]));
    expect(await grep({ pattern: 'a.b', literal: true })).toBe('f.txt:1: a.b');
    expect(await grep({ pattern: 'a.b', path: 'f.txt' })).toBe('f.txt:1: a.b\nf.txt:2: axb');
  });

  it('reports a missing path and a bad pattern without starting a search', async () => {
    await expect(grep({ pattern: 'x', path: 'nope' })).rejects.toThrow(/^Path not found: nope$/);
    await expect(grep({ pattern: '[' })).rejects.toThrow(/^Invalid regular expression/);
  });

  it('reads a link only when its target is inside the workspace', async () => {
    write('real/inside.txt', 'needle inside\n');
    const outside = path.join(base, 'outside.txt');
    fs.writeFileSync(outside, 'needle outside\n');
    fs.symlinkSync(path.join(workspace, 'real/inside.txt'), path.join(workspace, 'in-link.txt'));
    fs.symlinkSync(outside, path.join(workspace, 'out-link.txt'));
    expect((await grep({ pattern: 'needle' })).split('\n').sort()).toEqual([
      'in-link.txt:1: needle inside',
      'real/inside.txt:1: needle inside',
    ]);
  });
});
