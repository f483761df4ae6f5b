import { sessionDirFor } from '../../server/store/session-paths.js';
import { piFileWriter } from '../../server/store/test-support/pi-file-writer.js';
import { DEMO_MODEL } from '../../server/test-support/messages.js';
import {
  appendMessages,
  turnMessages,
  type TurnSpec,
} from '../../server/test-support/random-session.js';

/*
 * Writes a session of `entries` entries straight in pi's v3 JSONL format, as a long-lived coding
 * session looks: turns of prompt → tool call → tool result → answer along a main line, with a side
 * branch off an earlier turn every few turns. The leaf is the end of the main line. Its words are
 * fixed (the e2e specs look for them); the turns are built as the generator builds its own.
 */

export interface GeneratedSession {
  file: string;
  sessionId: string;
  entries: number;
  /** Ids and texts of the last prompts on the main line (newest last), for clicks. */
  recentPrompts: { id: string; text: string; parentId: string; answerId: string }[];
  leafId: string;
}

const USAGE = { input: 1200, output: 80, totalTokens: 1280 };

export function generateSession(dataDir: string, cwd: string, entries = 10_000): GeneratedSession {
  const writer = piFileWriter(cwd, Date.parse('2026-03-01T09:00:00.000Z'));
  const prompts: { id: string; text: string; parentId: string; answerId: string }[] = [];
  const turn = (parentId: string, n: number, track: boolean): string => {
    const text = `Task ${n}: update module ${n % 97} and run its tests`;
    // Each message is stamped with its entry's time: the writer's clock moves a second an entry.
    const at = (k: number): number => writer.clock + k * 1000;
    const spec: TurnSpec = {
      prompt: text,
      promptTime: at(1),
      rounds: [
        {
          text: 'Reading the module first.',
          call: { id: `call_${n}`, name: 'read', arguments: { path: `src/module-${n % 97}.ts` } },
          usage: USAGE,
          timestamp: at(2),
          result: `export const value${n} = ${n};\n`.repeat(20),
          resultTime: at(3),
        },
      ],
      answer: {
        text: `Done with task ${n}. The tests pass.\n\n\`\`\`ts\nexport const value${n} = ${n};\n\`\`\``,
        usage: USAGE,
        timestamp: at(4),
      },
    };
    writer.branch(parentId);
    const [user, call, , answer] = appendMessages(writer, turnMessages(spec, DEMO_MODEL));
    if (track) prompts.push({ id: user!, text, parentId, answerId: call! });
    return answer!;
  };

  let leaf = writer.append(
    { type: 'model_change', provider: 'arbor', modelId: 'arbor-demo' },
    null,
  );
  leaf = writer.append({ type: 'thinking_level_change', thinkingLevel: 'off' }, leaf);
  const mainLine: string[] = [];
  let n = 0;
  while (writer.count < entries - 4) {
    leaf = turn(leaf, ++n, true);
    mainLine.push(leaf);
    // Every fifth turn, a side branch of three turns off a turn a little way back.
    if (n % 5 === 0 && mainLine.length > 3 && writer.count < entries - 16) {
      let side = mainLine[mainLine.length - 3]!;
      for (let k = 0; k < 3; k++) side = turn(side, ++n, false);
    }
  }
  const file = writer.write(sessionDirFor(dataDir, cwd));
  return {
    file,
    sessionId: writer.sessionId,
    entries: writer.count,
    recentPrompts: prompts.slice(-4),
    leafId: leaf,
  };
}
