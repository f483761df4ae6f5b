import { SessionStore } from '../store/session-store.js';
import { parseCommandArgs } from './parse-command-args.js';

const usage = 'Usage: arbor context FILE [--leaf ID]\n';

/**
 * `arbor context FILE [--leaf ID]`: prints `{"leafId","messages","model","thinkingLevel"}` as one
 * JSON line, `messages` being pi's `buildSessionContext().messages` for that file and leaf. Reads
 * only: no lock, no repair, no migration on disk.
 */
export async function runContext(args: string[]): Promise<number> {
  const parsed = parseCommandArgs('context', usage, args, {
    options: { leaf: { type: 'string' } },
    positionals: { min: 1, max: 1 },
  });
  if (!parsed.ok) return parsed.status;
  const file = parsed.positionals[0]!;
  const leaf = parsed.values.leaf;
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
