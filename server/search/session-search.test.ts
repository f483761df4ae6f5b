import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { SessionSearchResult } from '../../shared/rest-shapes.js';
import { useTempDirs } from '../store/test-support/temp-dir.js';
import { writePiSessionFile, type PiTurn } from '../store/test-support/pi-session-file.js';
import { activeSearchWorkers, runSearchInWorker } from './search-runner.js';
import { DEFAULT_SEARCH_LIMITS, runSearchJob, type SearchJob } from './session-search.js';
import { textMatcher } from './text-match.js';

const tempDir = useTempDirs();

function session(dir: string, turns: PiTurn[]) {
  return writePiSessionFile(dir, '/ws', turns);
}

async function collect(job: SearchJob) {
  const results: SessionSearchResult[] = [];
  const summary = await runSearchJob(job, (result) => results.push(result));
  return { results, summary };
}

describe('runSearchJob', () => {
  it('lists a few hits per session and flags the rest; stops at the sessions cap', async () => {
    const dir = tempDir();
    const many = session(
      dir,
      Array.from({ length: 9 }, (_, i) => ({ role: 'user' as const, text: `apple ${i}` })),
    );
    const other = session(dir, [{ role: 'assistant', text: 'an apple' }]);
    const third = session(dir, [{ role: 'user', text: 'apple again' }]);
    const files = [many, other, third].map(({ sessionId, file }) => ({ sessionId, file }));
    const limits = { ...DEFAULT_SEARCH_LIMITS, hitsPerSession: 3, maxSessions: 2 };
    const { results, summary } = await collect({ query: 'APPLE', files, limits });
    expect(results.map((r) => r.sessionId)).toEqual([many.sessionId, other.sessionId]);
    expect(results[0]!.hits.map((h) => h.entryId)).toEqual(many.entryIds.slice(0, 3));
    expect(results[0]!.moreHits).toBe(true);
    expect(summary).toEqual({ capped: true, partialFiles: 0 });
  });

  it('reads no more of a file than its byte budget, and skips lines too long to search', async () => {
    const dir = tempDir();
    const big = session(dir, [
      { role: 'user', text: 'needle early' },
      { role: 'toolResult', text: `${'x'.repeat(200_000)} needle in a huge line` },
      { role: 'user', text: `${'y'.repeat(300_000)}` },
      { role: 'user', text: 'needle late' },
    ]);
    const files = [{ sessionId: big.sessionId, file: big.file }];
    const limits = { ...DEFAULT_SEARCH_LIMITS, maxLineBytes: 100_000, maxBytesPerFile: 450_000 };
    const { results, summary } = await collect({ query: 'needle', files, limits });
    expect(results[0]!.hits.map((h) => h.entryId)).toEqual([big.entryIds[0]]);
    expect(summary.partialFiles).toBe(1);
    expect(fs.statSync(big.file).size).toBeGreaterThan(450_000);
  });

  it('finds an editor shell command by its command line and by its output', async () => {
    const dir = tempDir();
    const file = `${dir}/shell.jsonl`;
    const sessionId = '44444444-5555-4666-8777-888888888888';
    fs.writeFileSync(
      file,
      [
        {
          type: 'session',
          version: 3,
          id: sessionId,
          timestamp: '2026-01-01T00:00:00.000Z',
          cwd: '/ws',
        },
        {
          type: 'message',
          id: 'bash0001',
          parentId: null,
          timestamp: '2026-01-01T00:00:01.000Z',
          message: {
            role: 'bashExecution',
            command: 'grep -r quokka .',
            output: 'notes.txt: the wombat sleeps',
            exitCode: 0,
            cancelled: false,
            truncated: false,
            timestamp: 1,
          },
        },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n') + '\n',
    );
    for (const query of ['quokka', 'WOMBAT sleeps']) {
      const { results } = await collect({
        query,
        files: [{ sessionId, file }],
        limits: DEFAULT_SEARCH_LIMITS,
      });
      expect(results[0]?.hits).toMatchObject([{ entryId: 'bash0001', where: 'bashExecution' }]);
    }
  });

  it('skips a file that vanished since the listing', async () => {
    const dir = tempDir();
    const kept = session(dir, [{ role: 'user', text: 'still here' }]);
    const files = [
      { sessionId: 'gone', file: `${dir}/gone.jsonl` },
      { sessionId: kept.sessionId, file: kept.file },
    ];
    const { results } = await collect({ query: 'here', files, limits: DEFAULT_SEARCH_LIMITS });
    expect(results.map((r) => r.sessionId)).toEqual([kept.sessionId]);
  });
});

describe('textMatcher', () => {
  it('matches literally, ignoring case and how whitespace runs', () => {
    const matcher = textMatcher('  Two   Words ');
    expect(matcher.find('one two\n\twords three')).toEqual([4, 14]);
    expect(textMatcher('a.c').find('abc')).toBeUndefined();
    expect(textMatcher('ÄRGER').find('viel ärger')).toEqual([5, 10]);
  });

  it('lets through every raw line that may hold a match, escaped or not', () => {
    expect(textMatcher('quote"d').mayMatchRaw('{"text":"quote\\"d"}')).toBe(true);
    expect(textMatcher('two words').mayMatchRaw('{"text":"two\\nwords"}')).toBe(true);
    expect(textMatcher('a/b<c').mayMatchRaw('{"text":"a\\/b\\u003cc"}')).toBe(true);
    expect(textMatcher('plain').mayMatchRaw('{"text":"other"}')).toBe(false);
  });
});

describe('runSearchInWorker', () => {
  it('stops the worker when the client goes away', async () => {
    const dir = tempDir();
    const files = Array.from({ length: 40 }, () => {
      const { sessionId, file } = session(
        dir,
        Array.from({ length: 200 }, (_, i) => ({ role: 'user' as const, text: `turn ${i}` })),
      );
      return { sessionId, file };
    });
    const controller = new AbortController();
    const running = runSearchInWorker(
      { query: 'turn', files, limits: { ...DEFAULT_SEARCH_LIMITS, hitsPerSession: 1000 } },
      { signal: controller.signal, budgetMs: 60_000 },
    );
    controller.abort();
    const run = await running;
    expect(run.outcome).toBe('aborted');
    expect(activeSearchWorkers()).toBe(0);
  });

  it('answers what the worker found', async () => {
    const dir = tempDir();
    const { sessionId, file } = session(dir, [{ role: 'user', text: 'find me' }]);
    const run = await runSearchInWorker(
      { query: 'find', files: [{ sessionId, file }], limits: DEFAULT_SEARCH_LIMITS },
      { signal: new AbortController().signal, budgetMs: 60_000 },
    );
    expect(run.outcome).toBe('done');
    expect(run.results.map((r) => r.sessionId)).toEqual([sessionId]);
  });
});
