// Arbor's floors, written as import rules (docs/architecture.md draws them). `npm run check:deps`
// fails on any file-level circle, any circle between folders, and any import that climbs a floor.
//
// From the bottom up:
//   shared/                      what server and page both speak; imports neither
//   server/runtime, server/errors  process helpers and the one error catalog
//   server/config                settings and folders
//   server/store                 session files; knows nothing of agents, sockets or models
//   server/models                the model layer and its stream contract
//   server/tools, server/compaction   what an agent uses, each knowing only models and store
//   server/agent                 the agent session: loop, queues, navigation
//   server/hub                   live sessions and their clients; reaches a session only through it
//   server/app, server/cli       the Fastify app and the command line; the composition roots
//   web/                         the page; speaks to the server only through shared/

/** Folders a layer must not import, each rule named for the floor it keeps clean. */
function notFrom(name, from, to, comment) {
  return {
    name,
    comment,
    severity: 'error',
    from: { path: from, pathNot: '\\.test\\.tsx?$|/test-support/' },
    to: { path: to },
  };
}

const server = (...folders) => `^server/(${folders.join('|')})/`;

module.exports = {
  forbidden: [
    {
      name: 'no-file-circle',
      comment: 'Two files that import each other (directly or round a loop) cannot be read apart.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-circle',
      comment: 'Two folders that import each other are one floor: one of them depends upward.',
      severity: 'error',
      scope: 'folder',
      // The page's folders are held by the module rules below instead, which a baseline can list.
      from: { path: '^(server|shared|bench)/' },
      to: { circular: true },
    },
    notFrom(
      'shared-imports-neither-side',
      '^shared/',
      '^(server|web)/',
      'shared/ is what both sides speak: it cannot lean on either.',
    ),
    notFrom(
      'web-not-from-server',
      '^web/',
      '^server/',
      'The page talks to the server through shared/ and the wire.',
    ),
    notFrom(
      'page-parts-below-the-workbench',
      '^web/src/(chat|sessions|graph|tree|state|socket|api|ui)/',
      '^web/src/app/',
      'web/src/app/ composes the page from its parts; a part does not import the composition.',
    ),
    notFrom(
      'page-state-below-the-views',
      '^web/src/(state|socket|api)/',
      '^web/src/(app|chat|sessions|graph|tree|ui)/',
      'The socket, the REST calls and the reducer know nothing of components.',
    ),
    notFrom(
      'workbench-composes-panes',
      '^web/src/app/Workbench\\.tsx$',
      '^(web/src/(socket|api)/|shared/click-rule\\.ts$)',
      'The workbench composes panes; the socket, the REST calls, the commands and the click rule ' +
        'reach it through hooks (use-socket-connection.ts, use-open-session.ts, use-*-commands.ts).',
    ),
    notFrom('server-not-from-web', '^server/', '^web/', 'The server does not run page code.'),
    notFrom(
      'errors-at-the-bottom',
      server('errors', 'runtime'),
      server(
        'config',
        'store',
        'models',
        'tools',
        'compaction',
        'agent',
        'hub',
        'app',
        'cli',
        'auth',
        'search',
        'demo-model',
      ),
      'The error catalog and process helpers sit at the bottom so every floor can use them.',
    ),
    notFrom(
      'store-knows-no-agent',
      server('store'),
      server(
        'models',
        'tools',
        'compaction',
        'agent',
        'hub',
        'app',
        'cli',
        'auth',
        'search',
        'demo-model',
      ),
      'The store knows files; agents, models, sockets and routes live above it.',
    ),
    notFrom(
      'models-below-the-agent',
      server('models'),
      server('tools', 'compaction', 'agent', 'hub', 'app', 'cli', 'demo-model', 'search'),
      'The model layer owns its stream contract; the agent imports it, never the other way.',
    ),
    notFrom(
      'tools-below-the-agent',
      server('tools'),
      server('compaction', 'agent', 'hub', 'app', 'cli', 'demo-model', 'search'),
      'A tool is handed to the agent; it does not know the agent.',
    ),
    notFrom(
      'compaction-below-the-agent',
      server('compaction'),
      server('tools', 'agent', 'hub', 'app', 'cli', 'demo-model', 'search'),
      'Compaction reads entries and calls a model; the agent calls compaction.',
    ),
    notFrom(
      'agent-below-the-hub',
      server('agent'),
      server('hub', 'app', 'cli', 'demo-model', 'search'),
      'The agent session knows nothing of sockets, routes or clients.',
    ),
    notFrom(
      'hub-below-the-app',
      server('hub'),
      server('app', 'cli', 'demo-model'),
      'The hub is wired by the app; it does not reach back into routes.',
    ),
    {
      name: 'hub-reaches-sessions-through-the-agent',
      comment:
        'The agent session is the hub’s only door into a session: the hub may name store types, ' +
        'but calls the store only through the agent session.',
      severity: 'error',
      from: { path: server('hub'), pathNot: '\\.test\\.tsx?$|/test-support/' },
      to: {
        path: server('store'),
        dependencyTypesNot: ['type-only'],
      },
    },
    notFrom(
      'demo-model-stands-alone',
      server('demo-model'),
      server('tools', 'compaction', 'agent', 'hub', 'app', 'cli', 'store', 'search'),
      'The demo model is a stand-in for a remote model server: it knows only the id the catalog lists.',
    ),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Tests and their support wire floors together on purpose (a harness builds the whole app), so
    // the floors are checked on the code that ships.
    exclude: {
      path: ['^(dist|node_modules)/', '\\.test\\.tsx?$', '/test-support/', '^e2e/support/'],
    },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
