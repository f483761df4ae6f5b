// Runs under pi 1.6's own Node (see pi16-oracle.ts): loads one session file with pi 1.6's
// SessionManager and prints, as one JSON line, its header id, its leaf, its context at the leaf and
// its context with every entry as leaf, the prompt in force there (pi-ai's replay of the system
// messages), and how its session listing shows the file.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [piIndex, file] = process.argv.slice(2);
const { SessionManager } = await import(pathToFileURL(piIndex).href);
const piAi = await import(
  pathToFileURL(path.join(path.dirname(piIndex), '../../pi-ai/dist/index.js')).href
);

const session = SessionManager.open(file);
const leafId = session.getLeafId();
const atLeaf = session.buildSessionContext();
const entries = session.getEntries();
const byEntry = {};
const promptByEntry = {};
for (const entry of entries) {
  session.branch(entry.id);
  byEntry[entry.id] = session.buildSessionContext();
  const messages = byEntry[entry.id].messages;
  promptByEntry[entry.id] = {
    message: piAi.getCurrentSystemMessage(messages) ?? null,
    text: piAi.getCurrentSystemPrompt(messages),
  };
}
const listed = (await SessionManager.list(session.getCwd(), path.dirname(file))).find(
  (info) => info.path === file,
);
process.stdout.write(
  JSON.stringify({
    listing: listed
      ? {
          id: listed.id,
          name: listed.name,
          messageCount: listed.messageCount,
          firstMessage: listed.firstMessage,
        }
      : null,
    sessionId: session.getSessionId(),
    leafId,
    entryIds: entries.map((entry) => entry.id),
    context: atLeaf,
    byEntry,
    promptByEntry,
  }) + '\n',
);
