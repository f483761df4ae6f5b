import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import path from 'node:path';
import { WebSocket } from 'ws';
import { PROTOCOL_VERSION, type ServerMessage } from '../../shared/protocol.js';
import { startTimedDemoModel, TOKEN, type TimedDemoModel } from './timed-demo-model.js';

/*
 * bench/ws: the latency Arbor's server adds between a model's streamed chunk and a client's
 * WebSocket frame, and the server's CPU, for
 *   A. 50 sessions streaming at once, two clients each;
 *   B. one session streaming to 100 clients;
 * each with delta coalescing at 30 ms (the default) and at 0 ms (per event-loop turn).
 *
 * The server runs in its own process (its CPU is read from /proc); the demo model and the clients
 * share this process, so a chunk's send time and a frame's receive time come from one clock.
 * Latency counts from the moment the model writes a chunk until the client's `message` event for
 * the frame that carries it, so it includes coalescing waits, the agent's parsing, and the network.
 */

const CHUNK_DELAY_MS = Number(process.env.CHUNK_DELAY_MS ?? 5);
const WORDS = Number(process.env.WORDS ?? 200);
const SESSIONS = Number(process.env.SESSIONS ?? 50);
const FANOUT = Number(process.env.FANOUT ?? 100);

interface Client {
  socket: WebSocket;
  request(command: Record<string, unknown>): Promise<Record<string, unknown>>;
  onDelta: ((tokens: string[], at: number) => void) | undefined;
  ended: Map<string, () => void>;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / 100;
}

async function startServer(
  dataDir: string,
  workspace: string,
  coalesceMs: number,
  model: TimedDemoModel,
) {
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(
    path.join(dataDir, 'config.json'),
    JSON.stringify({ coalesceMs, logLevel: 'warn', promptsPerMinute: 100_000 }),
  );
  fs.writeFileSync(
    path.join(dataDir, 'models.json'),
    JSON.stringify({
      models: [{ id: 'arbor-demo', baseUrl: model.baseUrl, contextWindow: 10_000_000 }],
    }),
  );
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'bench/ws/server-process.ts',
      '--port',
      '0',
      '--data',
      dataDir,
      '--workspace',
      workspace,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const loopDelays: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) {
      if (line.startsWith('LOOP_DELAY ')) loopDelays.push(line.slice('LOOP_DELAY '.length));
      else if (line.trim()) process.stderr.write(`server: ${line}\n`);
    }
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /running at (http:\/\/[^/\s]+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
  child.stdout?.resume();
  return { child, url, loopDelays };
}

async function connect(wsUrl: string): Promise<Client> {
  const socket = new WebSocket(wsUrl);
  let next = 1;
  const pending = new Map<string, (data: Record<string, unknown>) => void>();
  const client: Client = {
    socket,
    onDelta: undefined,
    ended: new Map(),
    request(command) {
      const id = `b${next++}`;
      return new Promise((resolve, reject) => {
        pending.set(id, (message) =>
          message.ok ? resolve(message) : reject(new Error(JSON.stringify(message))),
        );
        socket.send(JSON.stringify({ ...command, id }));
      });
    },
  };
  socket.on('message', (data) => {
    const at = performance.now();
    // Frames are cast, not parsed with the protocol's schemas, to keep the clients' own CPU
    // (which shares this process with the model) low; the tests check the schemas.
    const message = JSON.parse(String(data)) as ServerMessage;
    if (message.type === 'event') {
      const event = message.event;
      if (event.type === 'message_update' && event.assistantMessageEvent.type === 'text_delta') {
        client.onDelta?.(event.assistantMessageEvent.delta.match(TOKEN) ?? [], at);
      } else if (event.type === 'agent_end') {
        client.ended.get(message.sessionId)?.();
      }
    } else if (message.type === 'response') {
      pending.get(message.id)?.(message as unknown as Record<string, unknown>);
      pending.delete(message.id);
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const welcome = new Promise<void>((resolve) => socket.once('message', () => resolve()));
  socket.send(JSON.stringify({ type: 'hello', protocolVersion: PROTOCOL_VERSION }));
  await welcome;
  return client;
}

/** Streams one prompt in each session and collects every client's per-chunk latency. */
async function stream(
  model: TimedDemoModel,
  groups: { sessionId: string; clients: Client[]; prompt: string }[],
  server: { child: ChildProcess; loopDelays: string[] },
) {
  const serverPid = server.child.pid as number;
  const latencies: number[] = [];
  for (const group of groups) {
    for (const client of group.clients) {
      const seen = new Set<string>();
      client.onDelta = (tokens, at) => {
        for (const token of tokens) {
          const sent = model.sentAt.get(token);
          if (sent === undefined || seen.has(token)) continue;
          seen.add(token);
          latencies.push(at - sent);
        }
      };
    }
  }
  const resetAt = server.loopDelays.length;
  process.kill(serverPid, 'SIGUSR2');
  while (server.loopDelays.length === resetAt) await new Promise((r) => setTimeout(r, 10));
  const benchDelay = monitorEventLoopDelay({ resolution: 1 });
  benchDelay.enable();
  const cpuBefore = cpuMs(serverPid);
  const started = performance.now();
  const done = groups.flatMap((group) =>
    group.clients.map(
      (client) => new Promise<void>((resolve) => client.ended.set(group.sessionId, resolve)),
    ),
  );
  await Promise.all(
    groups.map((group) =>
      (group.clients[0] as Client).request({
        type: 'prompt',
        sessionId: group.sessionId,
        text: group.prompt,
      }),
    ),
  );
  await Promise.all(done);
  const wallMs = performance.now() - started;
  const serverCpuMs = cpuMs(serverPid) - cpuBefore;
  benchDelay.disable();
  const reported = server.loopDelays.length;
  process.kill(serverPid, 'SIGUSR2');
  while (server.loopDelays.length === reported) await new Promise((r) => setTimeout(r, 10));
  const [, loopP99, loopMax] = (server.loopDelays.at(-1) as string).split(' ').map(Number);
  latencies.sort((a, b) => a - b);
  return {
    chunks: latencies.length,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? NaN,
    wallMs,
    serverCpuPercent: (serverCpuMs / wallMs) * 100,
    serverCpuMsPerThousand: (serverCpuMs / latencies.length) * 1000,
    serverLoopP99: loopP99 as number,
    serverLoopMax: loopMax as number,
    benchLoopP99: benchDelay.percentile(99) / 1e6,
  };
}

const words = (prefix: string) =>
  Array.from({ length: WORDS }, (_, i) => `${prefix}W${i}`).join(' ');

async function run(coalesceMs: number, model: TimedDemoModel) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-bench-ws-'));
  const workspace = path.join(root, 'workspace');
  fs.mkdirSync(workspace);
  const server = await startServer(path.join(root, 'data'), workspace, coalesceMs, model);
  const { child, url } = server;
  const wsUrl = `${url.replace('http', 'ws')}/api/ws`;
  try {
    const { workspaces } = (await (await fetch(`${url}/api/workspaces`)).json()) as {
      workspaces: { id: string }[];
    };
    const workspaceId = workspaces[0]?.id as string;
    const openSession = async (clients: Client[]) => {
      const response = await (clients[0] as Client).request({ type: 'new_session', workspaceId });
      const sessionId = (response.data as { sessionId: string }).sessionId;
      await Promise.all(clients.map((client) => client.request({ type: 'subscribe', sessionId })));
      return sessionId;
    };

    const manyClients = await Promise.all(
      Array.from({ length: SESSIONS * 2 }, () => connect(wsUrl)),
    );
    const groups = [];
    for (let s = 0; s < SESSIONS; s++) {
      const clients = manyClients.slice(2 * s, 2 * s + 2);
      groups.push({ sessionId: await openSession(clients), clients, prompt: words(`S${s}`) });
    }
    const many = await stream(model, groups, server);
    for (const client of manyClients) client.socket.close();

    const fanClients = await Promise.all(Array.from({ length: FANOUT }, () => connect(wsUrl)));
    const fanSession = await openSession(fanClients);
    const fan = await stream(
      model,
      [{ sessionId: fanSession, clients: fanClients, prompt: words(`S${SESSIONS + 1}`) }],
      server,
    );
    for (const client of fanClients) client.socket.close();
    return { many, fan };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    fs.rmSync(root, { recursive: true, force: true });
  }
}

const fmt = (n: number) => n.toFixed(2);
const model = await startTimedDemoModel(CHUNK_DELAY_MS);
try {
  console.log(
    `bench/ws: ${SESSIONS} sessions × 2 clients, and 1 session × ${FANOUT} clients; ` +
      `${WORDS} chunks per stream, one every ${CHUNK_DELAY_MS} ms; ${os.cpus().length} cores`,
  );
  console.log(
    `load average before: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(
    '| coalescing | scenario | chunk deliveries | p50 ms | p99 ms | max ms | server CPU | server CPU per 1000 deliveries | server loop delay p99 / max | bench loop delay p99 |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const coalesceMs of [30, 0]) {
    model.sentAt.clear();
    const { many, fan } = await run(coalesceMs, model);
    for (const [name, r] of [
      [`${SESSIONS} sessions × 2 clients`, many],
      [`1 session × ${FANOUT} clients`, fan],
    ] as const) {
      console.log(
        `| ${coalesceMs} ms | ${name} | ${r.chunks} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${fmt(r.max)} | ${r.serverCpuPercent.toFixed(0)}% of a core for ${(r.wallMs / 1000).toFixed(1)} s | ${r.serverCpuMsPerThousand.toFixed(0)} ms | ${fmt(r.serverLoopP99)} / ${fmt(r.serverLoopMax)} ms | ${fmt(r.benchLoopP99)} ms |`,
      );
    }
  }
  console.log(
    `load average after: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
} finally {
  await model.close();
}
