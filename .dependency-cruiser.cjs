// Arbor's floors, written as import rules (docs/architecture.md draws them). `npm run check:deps`
// fails on any file-level circle, any circle between folders, and any import that climbs a floor.
//
// Every folder of server/ has a rule: the server folders it may import (shared/ is open to all).
// `serverFloors` below lists them from the bottom up; docs/architecture.md draws the same picture.

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

/** What each server folder may import of server/ (besides itself), from the bottom up. */
const serverFloors = {
  runtime: [[], 'Process helpers: workers, identities. They know nothing of Arbor.'],
  errors: [[], 'The one error catalog sits at the bottom so every floor can throw from it.'],
  store: [['runtime', 'errors'], 'Session files; nothing of agents, models, sockets or settings.'],
  config: [['store', 'runtime', 'errors'], 'Settings, folders and the id-to-file locator.'],
  auth: [['config', 'runtime', 'errors'], 'Users, tokens and logins, kept in the data folder.'],
  models: [['config', 'runtime', 'errors'], 'The catalog and the stream contract the agent uses.'],
  resources: [
    ['config', 'runtime', 'errors'],
    'Context files, skills and templates of a workspace.',
  ],
  export: [['store', 'runtime', 'errors'], 'A session as a page or a file, read from the store.'],
  search: [['store', 'runtime', 'errors'], 'Text search over session files.'],
  snapshots: [
    ['runtime', 'errors'],
    "A workspace's files as git trees in a shadow repository; nothing of sessions.",
  ],
  'demo-model': [['models', 'runtime', 'errors'], 'A stand-in for a remote model server.'],
  tools: [
    ['models', 'config', 'runtime', 'errors'],
    'A tool is handed to the agent; it sees the workspace, not the store.',
  ],
  compaction: [
    ['models', 'store', 'config', 'runtime', 'errors'],
    'Summaries and cut points; the agent calls it.',
  ],
  agent: [
    [
      'compaction',
      'tools',
      'models',
      'resources',
      'snapshots',
      'store',
      'config',
      'runtime',
      'errors',
    ],
    'The agent session knows nothing of sockets, routes or clients.',
  ],
  hub: [
    ['agent', 'auth', 'models', 'store', 'config', 'runtime', 'errors'],
    'Live sessions and their clients, wired by the app.',
  ],
  app: [
    [
      'hub',
      'agent',
      'compaction',
      'tools',
      'models',
      'resources',
      'export',
      'search',
      'snapshots',
      'demo-model',
      'auth',
      'store',
      'config',
      'runtime',
      'errors',
    ],
    'The Fastify app composes every floor below it; the command line is above it.',
  ],
  cli: [
    [
      'app',
      'hub',
      'agent',
      'compaction',
      'tools',
      'models',
      'resources',
      'export',
      'search',
      'snapshots',
      'demo-model',
      'auth',
      'store',
      'config',
      'runtime',
      'errors',
    ],
    'The command line, at the top.',
  ],
};

const serverFloorRules = Object.entries(serverFloors).map(([folder, [allowed, comment]]) => ({
  name: `server-${folder}-floor`,
  comment,
  severity: 'error',
  from: { path: server(folder), pathNot: '\\.test\\.tsx?$|/test-support/' },
  to: { path: '^server/', pathNot: server(folder, ...allowed) },
}));

/** A server folder that has no floor yet fails the check, so a new folder gets its rule. */
serverFloorRules.push({
  name: 'server-folder-has-a-floor',
  comment: 'Every server folder is placed on a floor in serverFloors (.dependency-cruiser.cjs).',
  severity: 'error',
  from: {},
  to: {
    path: '^server/',
    pathNot: `${server(...Object.keys(serverFloors), 'test-support')}|^server/[^/]+\\.ts$`,
  },
});

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
    ...serverFloorRules,
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
