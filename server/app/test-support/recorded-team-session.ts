import fs from 'node:fs';
import { requestTexts, startRecordedDemoModel, type ModelRequest } from './recording-proxy.js';
import {
  sessionFileIn,
  startTeamOnSocket,
  type Role,
  type TeamOnSocket,
  type TestServerOptions,
} from './test-server.js';
import type { WsTestClient } from './ws-test-client.js';

/** A team on a socket around one session, its model behind a recording proxy. */
export interface RecordedTeamSession<N extends string> extends TeamOnSocket<N> {
  sessionId: string;
  /** Every request body the model was sent, oldest first. */
  bodies: ModelRequest[];
  /** The recording proxy's base URL, for another program sent to the same model. */
  modelUrl: string;
  /** Sends `text` as the owner's prompt and waits for the run to end. */
  prompt(text: string): Promise<void>;
  /** The session's file under the data folder. */
  sessionFile(): string;
  /** The last line of the session's file, parsed. */
  lastLine(): Record<string, unknown>;
  /** The texts of the messages of the last request the model got, as `role: text`. */
  lastRequestTexts(): string[];
}

/**
 * `startTeamOnSocket` with the demo model behind a recording proxy as the server's model, and a
 * new session made by `owner` that every user's client has subscribed to (the owner's first).
 * `close` closes the team, then the model.
 */
export async function startRecordedTeamSession<N extends string>(
  users: Record<N, Role>,
  owner: NoInfer<N>,
  opts: TestServerOptions = {},
): Promise<RecordedTeamSession<N>> {
  const bodies: ModelRequest[] = [];
  const model = await startRecordedDemoModel(bodies);
  let team: TeamOnSocket<N> | undefined;
  let sessionId: string;
  try {
    team = await startTeamOnSocket(users, {
      ...opts,
      build: { ...opts.build, catalog: model.catalog },
    });
    sessionId = await team.clients[owner].newSession(team.server.workspaceId);
    for (const [name, client] of Object.entries<WsTestClient>(team.clients))
      if (name !== owner) await client.ok({ type: 'subscribe', sessionId });
  } catch (error) {
    await team?.close();
    await model.close();
    throw error;
  }
  const { server, clients, close } = team;
  const sessionFile = () => sessionFileIn(server.dataDir, sessionId);
  return {
    ...team,
    sessionId,
    bodies,
    modelUrl: model.url,
    prompt: (text) => clients[owner].prompt(sessionId, text, 30_000),
    sessionFile,
    lastLine: () => {
      const lines = fs.readFileSync(sessionFile(), 'utf8').trimEnd().split('\n');
      return JSON.parse(lines.at(-1)!) as Record<string, unknown>;
    },
    lastRequestTexts: () => requestTexts(bodies.at(-1)!),
    close: async () => {
      await close();
      await model.close();
    },
  };
}
