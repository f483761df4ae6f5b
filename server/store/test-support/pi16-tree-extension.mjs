// A pi 1.6 extension for tests: the tree moves pi's RPC mode has no command for, as slash
// commands. `/arbor-label ID TEXT` labels an entry (`leaf` for the leaf; no text clears the
// label); `/arbor-navigate ID [summary]` moves the leaf to ID, leaving a branch summary when asked.
export default function arborTreeCommands(pi) {
  pi.registerCommand('arbor-label', {
    description: 'Label an entry',
    handler: async (args, ctx) => {
      const [target, ...words] = args.trim().split(/\s+/);
      const id = target === 'leaf' ? ctx.sessionManager.getLeafId() : target;
      pi.setLabel(id, words.length ? words.join(' ') : undefined);
    },
  });
  pi.registerCommand('arbor-navigate', {
    description: 'Move the leaf',
    handler: async (args, ctx) => {
      const [target, mode] = args.trim().split(/\s+/);
      await ctx.waitForIdle();
      await ctx.navigateTree(target, { summarize: mode === 'summary' });
    },
  });
}
