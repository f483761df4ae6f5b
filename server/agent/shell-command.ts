import type { AgentMessage } from '../../shared/messages.js';
import type { AnyAgentTool } from '../tools/tool-types.js';
import type { CommandOutcome } from '../tools/bash-tool.js';
import { NotSupportedError } from './session-errors.js';

type ShellRunner = (command: string, signal: AbortSignal) => Promise<CommandOutcome>;

/** The workspace's shell, as the bash tool runs it; refused when the workspace has bash off. */
export function shellRunner(tools: ReadonlyMap<string, AnyAgentTool>): ShellRunner {
  const bash = tools.get('bash') as (AnyAgentTool & { runShell?: ShellRunner }) | undefined;
  if (!bash?.runShell)
    throw new NotSupportedError('Shell commands are turned off for this workspace');
  return bash.runShell;
}

/** Runs `command` and returns pi's bashExecution message for it (fields in pi's order). */
export async function runShellCommand(
  run: ShellRunner,
  command: string,
  excludeFromContext: boolean,
  signal: AbortSignal = new AbortController().signal,
): Promise<AgentMessage> {
  const outcome = await run(command, signal);
  const cancelled = outcome.ended !== undefined;
  return {
    role: 'bashExecution',
    command,
    output: outcome.output,
    ...(cancelled ? {} : { exitCode: outcome.exitCode ?? null }),
    cancelled,
    truncated: outcome.truncation.truncated,
    ...(outcome.fullOutputPath !== undefined ? { fullOutputPath: outcome.fullOutputPath } : {}),
    timestamp: Date.now(),
    ...(excludeFromContext ? { excludeFromContext: true } : {}),
  } as AgentMessage;
}

/**
 * A session's running `!command`s: each runs with its own abort signal, and `abortAll` (the
 * session's abort, or its closing) stops every one still running.
 */
export class ShellCommands {
  private readonly running = new Set<AbortController>();

  constructor(private readonly tools: ReadonlyMap<string, AnyAgentTool>) {}

  async run(command: string, excludeFromContext: boolean): Promise<AgentMessage> {
    const shell = shellRunner(this.tools);
    const controller = new AbortController();
    this.running.add(controller);
    try {
      return await runShellCommand(shell, command, excludeFromContext, controller.signal);
    } finally {
      this.running.delete(controller);
    }
  }

  abortAll(): void {
    for (const controller of this.running) controller.abort();
  }
}
