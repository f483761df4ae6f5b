import { z } from 'zod';
import type { AgentTool, ToolContext, ToolResultValue } from './tool-types.js';
import type { ToolSpec } from '../models/model-stream.js';

/*
 * Builds an AgentTool from a zod schema: the schema is the JSON Schema the model sees and the
 * parser its arguments go through. A bad call becomes an error the model can read and fix.
 */

export function defineTool<S extends z.ZodType>(def: {
  name: string;
  description: string;
  schema: S;
  /** Adjusts raw arguments before validation (e.g. legacy argument shapes). */
  prepare?: (raw: unknown) => unknown;
  execute: (args: z.infer<S>, context: ToolContext) => Promise<ToolResultValue>;
}): AgentTool<z.infer<S>> {
  const parameters = z.toJSONSchema(def.schema, { io: 'input' }) as Record<string, unknown>;
  delete parameters.$schema;
  const spec: ToolSpec = { name: def.name, description: def.description, parameters };
  return {
    spec,
    parse(raw) {
      const prepared = def.prepare ? def.prepare(raw) : raw;
      const result = def.schema.safeParse(prepared);
      if (result.success) return result.data;
      const problems = result.error.issues
        .map(
          (issue) =>
            `  - ${issue.path.length > 0 ? issue.path.join('.') : '(arguments)'}: ${issue.message}`,
        )
        .join('\n');
      throw new Error(
        `Validation failed for tool "${def.name}":\n${problems}\n\nReceived arguments:\n${JSON.stringify(raw, null, 2)}`,
      );
    },
    execute: def.execute,
  };
}

export function textResult(text: string, details?: unknown): ToolResultValue {
  return details === undefined
    ? { content: [{ type: 'text', text }] }
    : { content: [{ type: 'text', text }], details };
}
