import fs from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** How to start a worker thread: a script file, or source code to evaluate. */
export interface WorkerEntry {
  script: URL | string;
  eval: boolean;
}

/**
 * The worker script `<name>.js` beside the module at `moduleUrl` when running the build (dist/);
 * when running from source (tsx, vitest) there is only `<name>.ts`, which a small bootstrap loads
 * through tsx's require hook (Node 20 does not apply `--import` loaders to a worker's entry).
 */
export function workerEntryBeside(moduleUrl: string, name: string): WorkerEntry {
  const compiled = new URL(`./${name}.js`, moduleUrl);
  if (fs.existsSync(fileURLToPath(compiled))) return { script: compiled, eval: false };
  const tsx = createRequire(moduleUrl).resolve('tsx/cjs/api');
  const source = fileURLToPath(new URL(`./${name}.ts`, moduleUrl));
  return {
    script: `require(${JSON.stringify(tsx)}).require(${JSON.stringify(source)}, ${JSON.stringify(source)});`,
    eval: true,
  };
}
