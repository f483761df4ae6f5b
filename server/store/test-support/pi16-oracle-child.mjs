// Runs under pi 1.6's own Node (see pi16-oracle.ts): loads one session file with pi 1.6's
// SessionManager and prints, as one JSON line, its header id, its leaf, its context at the leaf and
// its context with every entry as leaf.
import { pathToFileURL } from 'node:url';

const [piIndex, file] = process.argv.slice(2);
const { SessionManager } = await import(pathToFileURL(piIndex).href);

const session = SessionManager.open(file);
const leafId = session.getLeafId();
const atLeaf = session.buildSessionContext();
const entries = session.getEntries();
const byEntry = {};
for (const entry of entries) {
  session.branch(entry.id);
  byEntry[entry.id] = session.buildSessionContext();
}
process.stdout.write(
  JSON.stringify({
    sessionId: session.getSessionId(),
    leafId,
    entryIds: entries.map((entry) => entry.id),
    context: atLeaf,
    byEntry,
  }) + '\n',
);
