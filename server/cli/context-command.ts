import { SessionStore } from '../store/session-store.js';

const usage = 'Usage: arbor context FILE [--leaf ID]\n';

/**
 * `arbor context FILE [--leaf ID]`: prints `{"leafId","messages","model","thinkingLevel"}` as one
 * JSON line, `messages` being pi's `buildSessionContext().messages` for that file and leaf. Reads
 * only: no lock, no repair, no migration on disk.
 */
export async function runContext(args: string[]): Promise<number> {
  let file: string | undefined;
  let leaf: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--leaf') {
      leaf = args[++i];
      if (leaf === undefined) {
        process.stderr.write(`arbor context: --leaf needs an entry id.\n${usage}`);
        return 2;
      }
    } else if (arg.startsWith('-') || file !== undefined) {
      process.stderr.write(`arbor context: unexpected argument "${arg}".\n${usage}`);
      return 2;
    } else {
      file = arg;
    }
  }
  if (file === undefined) {
    process.stderr.write(usage);
    return 2;
  }
  const store = SessionStore.openReadOnly(file);
  try {
    if (leaf !== undefined && !store.getNode(leaf)) {
      process.stderr.write(`arbor context: no entry "${leaf}" in ${store.file}\n`);
      return 1;
    }
    const leafId = leaf ?? store.getLeafId();
    const context = store.buildSessionContext(leafId);
    process.stdout.write(
      `${JSON.stringify({
        leafId,
        messages: context.messages,
        model: context.model,
        thinkingLevel: context.thinkingLevel,
      })}\n`,
    );
    return 0;
  } finally {
    store.close();
  }
}
