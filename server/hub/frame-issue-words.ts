import type { z } from 'zod';

/*
 * A command field that failed the protocol's schema, in words a person reads: zod's own messages
 * ("Too big: expected string to have <=1000000 characters") name types and operators, and reach
 * the page as a notice. Each field a person fills or picks has a name here; the rest are named by
 * their path, which only a client's author sees.
 */

const FIELD_NAMES: Record<string, string> = {
  text: 'The message',
  content: 'The replacement text',
  customInstructions: 'The instructions',
  label: 'The label',
  name: 'The name',
  modelId: 'The model',
  level: 'The thinking level',
  images: 'The images',
  sessionId: 'The session id',
  entryId: 'The entry id',
  targetId: 'The entry id',
  workspaceId: 'The workspace id',
  ids: 'The list of entry ids',
};

const count = (value: number | bigint): string => Number(value).toLocaleString('en-US');

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** One sentence for the first problem zod found in `input`. */
export function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  const key = issue.path.findLast((part) => typeof part === 'string');
  const field =
    (typeof key === 'string' && FIELD_NAMES[key]) ||
    (issue.path.length > 0 ? `"${issue.path.join('.')}"` : 'The frame');
  const value = valueAt(input, issue.path);
  switch (issue.code) {
    case 'too_big': {
      if (issue.origin === 'string' && typeof value === 'string') {
        return `${field} is ${count(value.length)} characters; the limit is ${count(issue.maximum)}.`;
      }
      if (issue.origin === 'array' && Array.isArray(value)) {
        return `${field} holds ${count(value.length)} items; the limit is ${count(issue.maximum)}.`;
      }
      return `${field} is too large; the limit is ${count(issue.maximum)}.`;
    }
    case 'too_small':
      if (issue.origin === 'string') {
        return Number(issue.minimum) <= 1
          ? `${field} is empty.`
          : `${field} needs at least ${count(issue.minimum)} characters.`;
      }
      return `${field} needs at least ${count(issue.minimum)} items.`;
    case 'invalid_type':
      return value === undefined
        ? `${field} is missing.`
        : `${field} should be ${issue.expected === 'string' ? 'text' : `a ${issue.expected}`}.`;
    case 'invalid_format':
      return `${field} is not valid: ${issue.message}.`;
    case 'invalid_value':
      return `${field} must be one of: ${issue.values.map((v) => String(v)).join(', ')}.`;
    case 'unrecognized_keys':
      return `Unknown fields: ${issue.keys.join(', ')}.`;
    default:
      return `${field} is not valid.`;
  }
}
