import fs from 'node:fs';
import path from 'node:path';

/*
 * A session file written by someone hostile, for the export's tests: script in every place a text
 * can stand (prompt, answer, markdown links, tool names and arguments, image types, labels, ids),
 * and a branch, so the tree has two children under the first prompt.
 */

export const HOSTILE_SESSION_ID = '11111111-2222-4333-8444-555555555555';
/** A 1×1 PNG. */
const PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const time = (n: number) => new Date(Date.UTC(2026, 11, 1, 12, 0, n)).toISOString();
const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 };

function assistant(content: unknown[], n: number) {
  return {
    role: 'assistant',
    content,
    api: 'openai-completions',
    provider: 'demo',
    model: 'arbor-demo"><script>alert("model")</script>',
    usage,
    stopReason: 'stop',
    timestamp: Date.parse(time(n)),
  };
}

/** In file order the other branch comes first, so the leaf (the last entry) is on the main one. */
function hostileSessionLines(): object[] {
  const [header, system, ...rest] = hostileEntries();
  const other = rest.filter((line) =>
    ['user0002', 'asst0003'].includes((line as { id: string }).id),
  );
  const main = rest.filter((line) => !other.includes(line));
  return [header!, system!, ...other, ...main];
}

function hostileEntries(): object[] {
  const e = (id: string, parentId: string | null, n: number, rest: object) => ({
    id,
    parentId,
    timestamp: time(n),
    ...rest,
  });
  return [
    {
      type: 'session',
      version: 3,
      id: HOSTILE_SESSION_ID,
      timestamp: time(0),
      cwd: '/tmp/<b>ws</b>',
    },
    e('sys00001', null, 1, {
      type: 'message',
      message: {
        role: 'system',
        content: 'You are the agent. </style><script>alert("system")</script>',
        sections: { 'AGENTS.md': 'Project rules </script><script>alert(1)</script>' },
        toolsAdded: [
          {
            name: 'read<img src=x onerror=alert(1)>',
            description: 'Reads a file',
            parameters: { type: 'object' },
          },
        ],
        timestamp: Date.parse(time(1)),
      },
    }),
    e('user0001', 'sys00001', 2, {
      type: 'message',
      message: {
        role: 'user',
        content: [
          {
            type: 'text',
            text: 'Hello <script>alert("user")</script> "</script><script>alert(2)</script>"',
          },
          { type: 'image', mimeType: 'image/png', data: PIXEL_PNG },
          { type: 'image', mimeType: 'image/png"><script>alert(3)</script>', data: PIXEL_PNG },
        ],
        timestamp: Date.parse(time(2)),
      },
    }),
    e('asst0001', 'user0001', 3, {
      type: 'message',
      message: assistant(
        [
          { type: 'thinking', thinking: 'Secret plan <script>alert("thinking")</script>' },
          {
            type: 'text',
            text:
              'See [the docs](javascript:alert(document.domain)) and <a href="javascript:alert(4)">this</a> ' +
              'and ![pixel](http://127.0.0.1:9/track.png) <img src=x onerror="alert(5)"> <iframe src="http://127.0.0.1:9/"></iframe>',
          },
          {
            type: 'toolCall',
            id: 'call_1',
            name: 'bash" onclick="alert(6)',
            arguments: { command: 'echo "</script>"' },
          },
        ],
        3,
      ),
    }),
    e('tool0001', 'asst0001', 4, {
      type: 'message',
      message: {
        role: 'toolResult',
        toolCallId: 'call_1',
        toolName: 'bash',
        content: [{ type: 'text', text: '</pre><script>alert("tool")</script>' }],
        isError: false,
        timestamp: Date.parse(time(4)),
      },
    }),
    e('asst0002', 'tool0001', 5, {
      type: 'message',
      message: assistant([{ type: 'text', text: 'Done on the main branch.' }], 5),
    }),
    e('user0002', 'sys00001', 6, {
      type: 'message',
      message: {
        role: 'user',
        content: 'A prompt on another branch',
        timestamp: Date.parse(time(6)),
      },
    }),
    e('asst0003', 'user0002', 7, {
      type: 'message',
      message: assistant([{ type: 'text', text: 'Answer on the other branch.' }], 7),
    }),
    e('label001', 'asst0002', 8, {
      type: 'label',
      targetId: 'asst0002',
      label: '<script>alert("label")</script>',
    }),
  ];
}

/** Writes the hostile session into `dir` and returns the file; its leaf is the label after `asst0002`. */
export function writeHostileSession(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `2026-12-01T12-00-00-000Z_${HOSTILE_SESSION_ID}.jsonl`);
  const lines = hostileSessionLines();
  fs.writeFileSync(file, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
  return file;
}
