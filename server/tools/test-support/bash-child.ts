import { createBashTool, type BashToolOptions } from '../bash-tool.js';

/*
 * Runs one bash tool call in its own process and prints the outcome as one JSON line, so a test
 * can run the server's tool code as another user (`runuser -u nobody`) or with another TMPDIR.
 */

interface ChildInput {
  workspace: string;
  options: BashToolOptions;
  command: string;
  timeout?: number;
  /** The temp folder the tool uses (set after start-up: tsx needs a working one). */
  tmpdir?: string;
}

const input = JSON.parse(process.argv[2] ?? '{}') as ChildInput;
if (input.tmpdir !== undefined) process.env.TMPDIR = input.tmpdir;
const tool = createBashTool(input.workspace, input.options);
try {
  const result = await tool.execute(
    tool.parse({
      command: input.command,
      ...(input.timeout !== undefined ? { timeout: input.timeout } : {}),
    }),
    { signal: new AbortController().signal, onUpdate: () => {} },
  );
  const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
  process.stdout.write(`${JSON.stringify({ ok: true, text, details: result.details })}\n`);
} catch (error) {
  process.stdout.write(`${JSON.stringify({ ok: false, text: (error as Error).message })}\n`);
}
