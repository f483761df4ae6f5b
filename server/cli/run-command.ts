import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createAgentSession } from '../agent/create-agent-session.js';
import { startDemoModel, type RunningDemoModel } from '../demo-model/demo-model-server.js';
import { ModelCatalog, type ModelInfo } from '../models/model-catalog.js';
import { resolutionError, resolveModel } from '../models/model-resolver.js';
import type { ThinkingLevel } from '../../shared/session-entries.js';
import { SessionStore } from '../store/session-store.js';
import { sessionFolderFor } from '../store/session-paths.js';
import { findOnPath } from '../tools/bash-launch.js';
import { loadConfig } from '../config/load-config.js';
import { sessionResources } from '../app/session-resources.js';
import { UserStore } from '../auth/user-store.js';

/*
 * `arbor run [--data DIR] [--session-dir DIR] [--workspace DIR] [--session FILE] [--model MODEL] PROMPT`: one prompt to
 * completion, printed as pi's `--mode json` prints it: the session header line first, then every
 * event as one JSON line. MODEL is what `pi --model` takes: `provider/id`, an id, part of one, with
 * an optional `:level` thinking suffix (model-resolver.ts). The demo model is started in-process when it is the model in use, so
 * the command needs no server. Exit code 0 when the run ended normally, 1 when it ended in an
 * error or abort, 2 for bad usage.
 */

const USAGE =
  'Usage: arbor run [--data DIR] [--session-dir DIR] [--workspace DIR] [--session FILE] [--model PROVIDER/ID[:LEVEL]] PROMPT\n';

function write(line: unknown): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

export async function runRun(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        data: { type: 'string' },
        'session-dir': { type: 'string' },
        workspace: { type: 'string' },
        session: { type: 'string' },
        model: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    process.stderr.write(`arbor run: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const prompt = parsed.positionals.join(' ').trim();
  if (!prompt) {
    process.stderr.write(`arbor run: a prompt is required\n${USAGE}`);
    return 2;
  }
  const workspace = path.resolve(parsed.values.workspace ?? process.cwd());
  if (!fs.statSync(workspace, { throwIfNoEntry: false })?.isDirectory()) {
    process.stderr.write(`arbor run: workspace "${workspace}" is not a directory\n`);
    return 2;
  }
  // The server's rules for the data and session folders, with this one workspace. The model
  // drives the file tools, not the person at the terminal: a data or session folder they reach
  // (the default ~/.arbor when run in the home folder) gives it the API keys in models.json, lets
  // it rewrite the users a server on that folder trusts, or forge sessions.
  let config;
  try {
    config = loadConfig({
      flags: {
        ...(parsed.values.data !== undefined ? { dataDir: parsed.values.data } : {}),
        ...(parsed.values['session-dir'] !== undefined
          ? { sessionDir: parsed.values['session-dir'] }
          : {}),
        workspaces: [workspace],
      },
      env: process.env,
    });
  } catch (error) {
    process.stderr.write(`arbor run: ${(error as Error).message}\n`);
    return 2;
  }
  for (const warning of config.warnings) process.stderr.write(`arbor run: ${warning}\n`);
  const { dataDir, sessionDir } = config;
  const realWorkspace = config.workspaces[0]?.path ?? workspace;

  // The catalog and the asked-for model are checked before a new session file is made, so a
  // mistake there leaves no empty session behind.
  let catalog = ModelCatalog.load({ dataDir });
  const requested =
    parsed.values.model !== undefined ? chooseRequested(catalog, parsed.values.model) : undefined;
  const store = parsed.values.session
    ? SessionStore.open(path.resolve(parsed.values.session))
    : SessionStore.create({
        cwd: workspace,
        sessionDir: sessionFolderFor({ dataDir, sessionDir }, workspace).dir,
      });
  let demo: RunningDemoModel | undefined;
  try {
    const model = chooseModel(catalog, store, requested?.model);
    if (model.demo) {
      demo = await startDemoModel({ port: 0 });
      catalog = ModelCatalog.load({ dataDir, demoBaseUrl: demo.baseUrl });
    }
    write(store.header);
    const session = await createAgentSession({
      workspace,
      store,
      catalog,
      model: { provider: model.provider, modelId: model.id },
      // The same context files, skills and templates as the server's sessions in this workspace.
      resources: sessionResources({
        workspace: realWorkspace,
        dataDir,
        enabled: config.workspaces[0]?.resources !== false,
        teamMode: () => new UserStore(dataDir).hasUsers(),
      }),
      toolPolicy: findOnPath('bwrap')
        ? {
            bash: 'sandboxed',
            sandbox: {
              dataDir,
              ...(sessionDir !== undefined ? { sessionDir } : {}),
              workspaces: [workspace],
            },
          }
        : { bash: 'unsandboxed' },
    });
    if (requested?.thinkingLevel) session.setThinkingLevel(requested.thinkingLevel);
    session.subscribe((event) => write(event));
    const interrupt = () => void session.abort();
    process.once('SIGINT', interrupt);
    process.once('SIGTERM', interrupt);
    try {
      await session.prompt(prompt);
    } finally {
      process.off('SIGINT', interrupt);
      process.off('SIGTERM', interrupt);
    }
    const last = session
      .getContextMessages()
      .filter((m) => m.role === 'assistant')
      .at(-1);
    await session.dispose();
    return last &&
      last.role === 'assistant' &&
      (last.stopReason === 'error' || last.stopReason === 'aborted')
      ? 1
      : 0;
  } finally {
    // dispose() closed the store on the happy path; closing again is harmless.
    try {
      store.close();
    } catch {
      // already closed
    }
    await demo?.close();
  }
}

/** The model `--model` names, as pi reads it; an error naming the candidates when it is not one. */
function chooseRequested(
  catalog: ModelCatalog,
  text: string,
): { model: ModelInfo; thinkingLevel?: ThinkingLevel } {
  const models = catalog.list();
  const usable = (provider: string) =>
    models.some((m) => m.provider === provider && catalog.hasKey(m));
  const result = resolveModel(text, models, usable);
  if (result.status !== 'resolved') throw new Error(resolutionError(text, result));
  return result.thinkingLevel
    ? { model: result.model, thinkingLevel: result.thinkingLevel }
    : { model: result.model };
}

function chooseModel(
  catalog: ModelCatalog,
  store: SessionStore,
  requested: ModelInfo | undefined,
): ModelInfo {
  if (requested) return requested;
  const saved = store.buildSessionContext().model;
  if (!saved) return catalog.defaultModel();
  // The session's own model, never another one silently: one this server cannot call is refused.
  const recorded = catalog.recorded(saved.provider, saved.modelId);
  if (recorded.unavailable) throw new Error(`${recorded.unavailable} (--model ID picks one)`);
  return recorded;
}
