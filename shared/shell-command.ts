/** pi's editor rule: `!cmd` runs in the shell and enters the context, `!!cmd` runs without it. */
export function parseShellCommand(
  text: string,
): { command: string; excludeFromContext: boolean } | null {
  const excludeFromContext = text.startsWith('!!');
  if (!text.startsWith('!')) return null;
  const command = text.slice(excludeFromContext ? 2 : 1).trim();
  return command ? { command, excludeFromContext } : null;
}

/** The hint under the editor while a shell command is typed, or null. */
export function shellCommandHint(text: string): string | null {
  const shell = parseShellCommand(text);
  if (!shell) return null;
  return shell.excludeFromContext
    ? "Runs in the workspace's shell; not added to the context"
    : "Runs in the workspace's shell; the output enters the context";
}
