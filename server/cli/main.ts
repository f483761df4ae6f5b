/**
 * The `arbor` command line. Each subcommand lives in its own module and is loaded on demand, so
 * `arbor tree` does not pay for Fastify and `arbor serve` does not pay for the benchmarks.
 */
type Command = (args: string[]) => Promise<number>;

const commands: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./serve-command.js')).runServe,
  run: async () => (await import('./run-command.js')).runRun,
  context: async () => (await import('./context-command.js')).runContext,
  tree: async () => (await import('./tree-command.js')).runTree,
  export: async () => (await import('./export-command.js')).runExport,
  files: async () => (await import('./files-command.js')).runFiles,
  user: async () => (await import('./user-command.js')).runUser,
  workspace: async () => (await import('./workspace-command.js')).runWorkspace,
};

const usage = `Usage: arbor <command> [options]

  serve [--host H] [--port P] [--data DIR] [--session-dir DIR] [--workspace DIR]...
                                                                  start the server (default)
  run [--data DIR] [--session-dir DIR] [--workspace DIR] [--session FILE] [--model ID] PROMPT
  context FILE [--leaf ID]                                        print the session context as JSON
  tree FILE                                                       print the session tree
  export FILE [OUT.html] [--path]                                 write the session as one HTML page
  files FILE [--entry ID] [--data DIR]                            the files a turn (or the branch) changed
  user add NAME --role admin|member|viewer | user list | user remove NAME
  workspace trust|untrust|status DIR [--data DIR]                 whether its own resources load
`;

export async function runCli(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  const name = first === undefined || first.startsWith('-') ? 'serve' : first;
  const args = name === first ? rest : argv;
  // Help for Arbor or for one command (`arbor serve --help`): the usage lists every option.
  if (name === 'help' || args[0] === '-h' || args.includes('--help')) {
    process.stdout.write(usage);
    return 0;
  }
  const load = commands[name];
  if (!load) {
    process.stderr.write(`arbor: unknown command "${name}"\n\n${usage}`);
    return 2;
  }
  try {
    return await (
      await load()
    )(args);
  } catch (error) {
    process.stderr.write(
      `arbor ${name}: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 1;
  }
}
