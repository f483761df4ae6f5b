import type { ToolCall, ToolResultMessage } from '../../../shared/messages';
import type { ToolRun } from '../state/session-reducer';

/*
 * What one line says of a tool call: its main argument (the path it reads, the command it runs),
 * where it stands (running, done, failed, or not answered: a run that ended before it ran), and
 * how long it ran, from the live run while the page watched it, else from the result pi 1.6 and
 * Arbor record (`durationMs`).
 */

export type ToolCallStatus = 'running' | 'done' | 'failed' | 'unanswered';

/** The argument each built-in tool is known by; others show their arguments' JSON. */
const MAIN_ARGUMENT: Record<string, string> = {
  read: 'path',
  write: 'path',
  edit: 'path',
  ls: 'path',
  bash: 'command',
  grep: 'pattern',
  find: 'pattern',
};

const SHORT = 80;

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > SHORT ? `${line.slice(0, SHORT - 1)}…` : line;
}

/** The call's arguments in a few words (its partial JSON while it streams). */
export function shortArguments(call: ToolCall): string {
  if (typeof call.partialArgs === 'string') return clip(call.partialArgs);
  const args = call.arguments as Record<string, unknown> | undefined;
  const main = MAIN_ARGUMENT[call.name];
  const value = main && args ? args[main] : undefined;
  if (typeof value === 'string') return clip(value);
  return clip(JSON.stringify(call.arguments) ?? '');
}

export function toolCallStatus(
  run: ToolRun | undefined,
  result: ToolResultMessage | undefined,
): ToolCallStatus {
  if (run?.running) return 'running';
  const failed = run ? run.isError : result?.isError;
  if (run || result) return failed ? 'failed' : 'done';
  return 'unanswered';
}

/** "37 ms", "1.2 s", "2 min 5 s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}
