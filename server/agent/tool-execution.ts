import type { AssistantMessage, ToolCall, ToolResultMessage } from '../../shared/messages.js';
import type { AgentEvent, ToolResultPayload } from '../../shared/agent-events.js';
import type { AnyAgentTool, ToolResultValue } from '../tools/tool-types.js';

/** Where the loop and its tool calls send their events. */
export type EmitFn = (event: AgentEvent) => void;

/*
 * Runs one assistant message's tool calls as pi 0.73 does in its default parallel mode: every call
 * is announced and prepared (looked up, arguments validated) in source order, the prepared calls
 * run concurrently, and the results become toolResult messages in source order. A failing,
 * unknown or badly called tool is data: an `isError` result the model can read and fix.
 */

interface Finalized {
  call: ToolCall;
  result: ToolResultValue;
  isError: boolean;
  /** How long the tool ran, as pi 1.6 records it (absent for a call refused before it ran). */
  durationMs?: number;
}

function errorResult(text: string): ToolResultValue {
  return { content: [{ type: 'text', text }], details: {} };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function payload(result: ToolResultValue): ToolResultPayload {
  return result.details === undefined
    ? { content: result.content }
    : { content: result.content, details: result.details };
}

export async function executeToolCalls(
  assistant: AssistantMessage,
  tools: ReadonlyMap<string, AnyAgentTool>,
  signal: AbortSignal,
  emit: EmitFn,
): Promise<ToolResultMessage[]> {
  const calls = assistant.content.filter((block): block is ToolCall => block.type === 'toolCall');
  const runs: (Finalized | (() => Promise<Finalized>))[] = [];
  for (const call of calls) {
    emit({
      type: 'tool_execution_start',
      toolCallId: call.id,
      toolName: call.name,
      args: call.arguments,
    });
    const tool = tools.get(call.name);
    let immediate: Finalized | undefined;
    let args: unknown;
    if (!tool) {
      immediate = { call, result: errorResult(`Tool ${call.name} not found`), isError: true };
    } else {
      try {
        args = tool.parse(call.arguments);
      } catch (error) {
        immediate = { call, result: errorResult(messageOf(error)), isError: true };
      }
    }
    if (immediate) {
      emitEnd(immediate, emit);
      runs.push(immediate);
      continue;
    }
    const prepared = tool!;
    runs.push(async () => {
      let finalized: Finalized;
      const startedAt = performance.now();
      const elapsed = () => Math.round(performance.now() - startedAt);
      try {
        if (signal.aborted) throw new Error('Tool execution was aborted');
        const result = await prepared.execute(args, {
          signal,
          onUpdate: (partial) =>
            emit({
              type: 'tool_execution_update',
              toolCallId: call.id,
              toolName: call.name,
              args: call.arguments,
              partialResult: payload(partial),
            }),
        });
        finalized = { call, result, isError: false, durationMs: elapsed() };
      } catch (error) {
        const failed = errorResult(messageOf(error));
        finalized = { call, result: failed, isError: true, durationMs: elapsed() };
      }
      emitEnd(finalized, emit);
      return finalized;
    });
  }
  const finished = await Promise.all(
    runs.map((run) => (typeof run === 'function' ? run() : Promise.resolve(run))),
  );
  return finished.map((done) => {
    const message: ToolResultMessage = {
      role: 'toolResult',
      toolCallId: done.call.id,
      toolName: done.call.name,
      content: done.result.content,
      ...(done.result.details === undefined ? {} : { details: done.result.details }),
      isError: done.isError,
      ...(done.durationMs === undefined ? {} : { durationMs: done.durationMs }),
      timestamp: Date.now(),
    };
    emit({ type: 'message_start', message });
    emit({ type: 'message_end', message });
    return message;
  });
}

function emitEnd(done: Finalized, emit: EmitFn): void {
  emit({
    type: 'tool_execution_end',
    toolCallId: done.call.id,
    toolName: done.call.name,
    result: payload(done.result),
    isError: done.isError,
    ...(done.durationMs === undefined ? {} : { durationMs: done.durationMs }),
  });
}
