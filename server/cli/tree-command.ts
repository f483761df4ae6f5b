import { SessionStore } from '../store/session-store.js';
import { renderTreeText } from '../store/tree-text.js';
import { parseCommandArgs } from './parse-command-args.js';

const usage = 'Usage: arbor tree FILE\n';

/**
 * `arbor tree FILE`: the session tree as indented text (ids, roles, short previews, labels, the
 * leaf marked with `*`). Reads only: no lock, no repair, no migration on disk.
 */
export async function runTree(args: string[]): Promise<number> {
  const parsed = parseCommandArgs('tree', usage, args, {
    options: {},
    positionals: { min: 1, max: 1 },
  });
  if (!parsed.ok) return parsed.status;
  const file = parsed.positionals[0]!;
  const store = SessionStore.openReadOnly(file);
  try {
    const name = store.getSessionName();
    const report = store.openReport;
    const notes = [
      report.badLines.length ? `${report.badLines.length} unreadable line(s)` : '',
      report.tornTailBytes ? `torn last line (${report.tornTailBytes} bytes)` : '',
      report.migratedFromVersion ? `version ${report.migratedFromVersion} file` : '',
    ].filter(Boolean);
    process.stdout.write(
      `session ${store.sessionId}${name ? ` "${name}"` : ''}  cwd ${store.cwd}\n` +
        (notes.length ? `note: ${notes.join('; ')}\n` : '') +
        renderTreeText(store),
    );
    return 0;
  } finally {
    store.close();
  }
}
