import path from 'node:path';
import { pathToFileURL } from 'node:url';

/*
 * pi 0.73.1's own compaction functions, loaded from its compiled files, for tests that compare
 * Arbor's behaviour with pi's on the same inputs. Some are not exported from the package index
 * (prepareCompaction, findTurnStartIndex), so the files are imported by path.
 */

const piDist = path.resolve('node_modules/@mariozechner/pi-coding-agent/dist');

// pi ships no types for these internal files; the tests only compare plain data.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

async function load(relative: string): Promise<Loose> {
  return (await import(pathToFileURL(path.join(piDist, relative)).href)) as Loose;
}

export interface PiOracle {
  compaction: Loose;
  branch: Loose;
  utils: Loose;
  messages: Loose;
  sessionManager: Loose;
}

let cached: Promise<PiOracle> | undefined;

export function loadPiOracle(): Promise<PiOracle> {
  cached ??= (async () => ({
    compaction: await load('core/compaction/compaction.js'),
    branch: await load('core/compaction/branch-summarization.js'),
    utils: await load('core/compaction/utils.js'),
    messages: await load('core/messages.js'),
    sessionManager: await load('core/session-manager.js'),
  }))();
  return cached;
}
