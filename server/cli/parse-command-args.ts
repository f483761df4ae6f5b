import { parseArgs, type ParseArgsConfig } from 'node:util';

/*
 * A subcommand's arguments read by `node:util` `parseArgs` (strict: an unknown option is an error),
 * with the usage printed and exit status 2 for anything it refuses or too many or too few
 * positionals, as every `arbor` command answers a mistyped call.
 */

type Options = NonNullable<ParseArgsConfig['options']>;

export function parseCommandArgs<O extends Options>(
  command: string,
  usage: string,
  args: string[],
  spec: { options: O; positionals: { min: number; max: number } },
):
  | {
      ok: true;
      values: ReturnType<typeof parseArgs<{ options: O; allowPositionals: true }>>['values'];
      positionals: string[];
    }
  | { ok: false; status: 2 } {
  let parsed;
  try {
    parsed = parseArgs({ args, options: spec.options, allowPositionals: true, strict: true });
  } catch (error) {
    process.stderr.write(`arbor ${command}: ${(error as Error).message}\n${usage}`);
    return { ok: false, status: 2 };
  }
  const count = parsed.positionals.length;
  if (count < spec.positionals.min || count > spec.positionals.max) {
    process.stderr.write(usage);
    return { ok: false, status: 2 };
  }
  return { ok: true, values: parsed.values, positionals: parsed.positionals };
}
