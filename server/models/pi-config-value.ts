/*
 * pi's config values (an `apiKey` in pi's models.json), read as pi 1.6 reads them
 * (`core/resolve-config-value.js`): a leading `!` makes the rest a shell command; otherwise the
 * value is a literal in which `$NAME` and `${NAME}` stand for environment variables and `$$` and
 * `$!` for a literal `$` and `!`. A plain `MY_KEY` is the literal text `MY_KEY`, as in pi 1.6.
 *
 * Arbor never runs the command (decision 060): a value that is one is reported, not resolved.
 */

type Part = { literal: string } | { env: string };

export type PiConfigValue = { command: string } | { parts: Part[] };

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ENV_NAME_PREFIX = /^[A-Za-z_][A-Za-z0-9_]*/;

function pushLiteral(parts: Part[], text: string): void {
  if (!text) return;
  const last = parts.at(-1);
  if (last && 'literal' in last) last.literal += text;
  else parts.push({ literal: text });
}

export function parsePiConfigValue(value: string): PiConfigValue {
  if (value.startsWith('!')) return { command: value.slice(1) };
  const parts: Part[] = [];
  let index = 0;
  while (index < value.length) {
    const dollar = value.indexOf('$', index);
    if (dollar < 0) {
      pushLiteral(parts, value.slice(index));
      break;
    }
    pushLiteral(parts, value.slice(index, dollar));
    const next = value[dollar + 1];
    if (next === '$' || next === '!') {
      pushLiteral(parts, next);
      index = dollar + 2;
      continue;
    }
    if (next === '{') {
      const end = value.indexOf('}', dollar + 2);
      if (end < 0) {
        pushLiteral(parts, '$');
        index = dollar + 1;
        continue;
      }
      const name = value.slice(dollar + 2, end);
      if (ENV_NAME.test(name)) parts.push({ env: name });
      else pushLiteral(parts, value.slice(dollar, end + 1));
      index = end + 1;
      continue;
    }
    const name = ENV_NAME_PREFIX.exec(value.slice(dollar + 1))?.[0];
    if (name) {
      parts.push({ env: name });
      index = dollar + 1 + name.length;
      continue;
    }
    pushLiteral(parts, '$');
    index = dollar + 1;
  }
  return { parts };
}

/**
 * The value with its variables filled in from `env`; undefined when one of them is unset or empty
 * (as pi: the key is then missing), or when the value is a command.
 */
export function resolvePiConfigValue(
  value: PiConfigValue,
  env: Record<string, string | undefined>,
): string | undefined {
  if ('command' in value) return undefined;
  let resolved = '';
  for (const part of value.parts) {
    if ('literal' in part) {
      resolved += part.literal;
      continue;
    }
    const fromEnv = env[part.env];
    if (!fromEnv) return undefined;
    resolved += fromEnv;
  }
  return resolved;
}
