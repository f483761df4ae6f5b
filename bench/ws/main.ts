import { execSync, fork, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import path from 'node:path';
import { WebSocket } from 'ws';
import { PROTOCOL_VERSION, type ServerMessage } from '../../shared/protocol.js';
import { monotonicMs, TOKEN } from './timed-demo-model.js';

/*
 * bench/ws: the latency Arbor's server adds between a model's streamed chunk and a client's
 * WebSocket frame, and the server's CPU, for
 *   A. 50 sessions streaming at once, two clients each, their prompts sent at random moments
 *      within the first second (steady streaming), and again all in the same instant (a burst);
 *   B. one session streaming to 100 clients;
 * each with delta coalescing at 30 ms (the default) and at 0 ms (per network read), and each
 * against the floor (floor-relay.mjs: the least relay, in the server's place) in the same round.
 *
 * Three processes: the server (the built `arbor serve`, rebuilt first, or the floor; its CPU is
 * read from /proc), the demo model (records when it writes each chunk) and this one (the clients). Times are CLOCK_MONOTONIC, common to all
 * processes. Latency counts from the model's write of a chunk to the client's `message` event for
 * the frame that carries it: coalescing waits, the agent's parsing and the network are included.
 * Every scenario first streams a short unmeasured warm-up in each session.
 */

const CHUNK_DELAY_MS = Number(process.env.CHUNK_DELAY_MS ?? 5);
const WORDS = Number(process.env.WORDS ?? 600);
const WARMUP_WORDS = Number(process.env.WARMUP_WORDS ?? 40);
const SESSIONS = Number(process.env.SESSIONS ?? 50);
const FANOUT = Number(process.env.FANOUT ?? 100);
const SPREAD_MS = Number(process.env.SPREAD_MS ?? 1000);
const COALESCING = (process.env.COALESCE_MS ?? '30,0').split(',').map(Number);
/** `FLOOR=0` leaves out the floor relay; `ROUNDS=n` runs every server n times, in turn. */
const WITH_FLOOR = process.env.FLOOR !== '0';
const ROUNDS = Number(process.env.ROUNDS ?? 1);
/** `SCENARIOS=spread,burst,fanout` (the default: all three) picks the scenarios. */
type Scenario = 'spread' | 'burst' | 'fanout';
const SCENARIOS = (process.env.SCENARIOS ?? 'spread,burst,fanout').split(',') as Scenario[];
const SCENARIO_NAMES: Record<Scenario, string> = {
  spread: `${SESSIONS} sessions × 2 clients, prompts spread over ${SPREAD_MS} ms`,
  burst: `${SESSIONS} sessions × 2 clients, prompts in one instant`,
  fanout: `1 session × ${FANOUT} clients`,
};
/**
 * Node flags for the server (`SERVER_NODE_ARGS="--cpu-prof"`); `VARIANTS="a;b"` runs Arbor once
 * per set of flags, each in turn, to compare them in one run.
 */
const VARIANTS = (process.env.VARIANTS ?? process.env.SERVER_NODE_ARGS ?? '')
  .split(';')
  .map((args) => args.split(' ').filter(Boolean));
/** `REPLAY_EVENTS=n` sets the server's replay buffer (frames per session). */
const REPLAY_EVENTS = Number(process.env.REPLAY_EVENTS ?? 0);
/** docs: product spec §7, streaming: 50 sessions at once on 2 cores, added latency at p99. */
/** Product §7: with coalescing off, under 20 ms added at p99 and at most 3× the floor's CPU per chunk. */
const GOAL_ADDED_P99_MS = 20;
const GOAL_CPU_RATIO = 3;
/**
 * `PIN=1` gives the server the first core to itself and puts the model and the clients on the
 * second (Linux `taskset`), so the load generator cannot take the server's CPU.
 */
const PIN = process.env.PIN === '1';
const pinned = (command: string[], cpu: number) =>
  PIN ? ['taskset', '-c', String(cpu), ...command] : command;

interface Client {
  socket: WebSocket;
  request(command: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** [token, monotonic ms of the frame's arrival] for every delta token received. */
  received: [string, number][];
  ended: Map<string, () => void>;
}

interface ModelProcess {
  baseUrl: string;
  collect(): Promise<Map<string, number>>;
  close(): Promise<void>;
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

async function startModel(): Promise<ModelProcess> {
  const child = fork('bench/ws/model-process.ts', [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, CHUNK_DELAY_MS: String(CHUNK_DELAY_MS) },
  });
  if (PIN) execSync(`taskset -p -c 1 ${child.pid}`, { stdio: 'ignore' });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { baseUrl: string }).baseUrl));
    child.once('exit', (code) => reject(new Error(`model process exited with ${code}`)));
  });
  return {
    baseUrl,
    collect: () =>
      new Promise((resolve) => {
        child.once('message', (m) =>
          resolve(new Map((m as { sentAt: [string, number][] }).sentAt)),
        );
        child.send('collect');
      }),
    close: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.send('close');
      }),
  };
}

/**
 * What runs in the server's place: Arbor with a coalescing window and Node flags, or the floor,
 * the least relay (floor-relay.mjs), with the same flags.
 */
interface ServerConfig {
  kind: 'arbor' | 'floor';
  coalesceMs: number;
  nodeArgs: string[];
}

const configName = (config: ServerConfig) =>
  [
    config.kind === 'floor' ? 'floor' : `arbor, coalescing ${config.coalesceMs} ms`,
    ...config.nodeArgs,
  ].join(' ');

function serverCommand(
  config: ServerConfig,
  dataDir: string,
  workspace: string,
  modelUrl: string,
): string[] {
  const node = [process.execPath, ...config.nodeArgs];
  if (config.kind === 'floor') return [...node, 'bench/ws/floor-relay.mjs', modelUrl];
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(
    path.join(dataDir, 'config.json'),
    JSON.stringify({
      coalesceMs: config.coalesceMs,
      // The start-up line, which says the port, is an info log line; nothing else logs at info
      // while streaming.
      logLevel: 'info',
      promptsPerMinute: 100_000,
      ...(REPLAY_EVENTS ? { replayEvents: REPLAY_EVENTS } : {}),
    }),
  );
  fs.writeFileSync(
    path.join(dataDir, 'models.json'),
    JSON.stringify({
      models: [{ id: 'arbor-demo', baseUrl: modelUrl, contextWindow: 10_000_000 }],
    }),
  );
  return [
    ...node,
    'bench/ws/server-process.mjs',
    '--port',
    '0',
    '--data',
    dataDir,
    '--workspace',
    workspace,
  ];
}

async function startServer(
  config: ServerConfig,
  dataDir: string,
  workspace: string,
  modelUrl: string,
) {
  const [command, ...args] = pinned(serverCommand(config, dataDir, workspace, modelUrl), 0);
  const child = spawn(command as string, args, { stdio: ['ignore', 'pipe', 'pipe'] });
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
  // `SERVER_LOG=file` keeps the server's standard output (e.g. `--trace-gc` lines).
  if (process.env.SERVER_LOG)
    child.stdout?.pipe(fs.createWriteStream(process.env.SERVER_LOG, { flags: 'a' }));
  else child.stdout?.resume();
  return { child, url, loopDelays };
}

type Server = Awaited<ReturnType<typeof startServer>>;

async function connect(wsUrl: string): Promise<Client> {
  const socket = new WebSocket(wsUrl);
  let next = 1;
  const pending = new Map<string, (data: Record<string, unknown>) => void>();
  const client: Client = {
    socket,
    received: [],
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
    const at = monotonicMs();
    // Frames are cast, not parsed with the protocol's schemas, to keep the clients' own CPU low;
    // the tests check the schemas.
    const message = JSON.parse(String(data)) as ServerMessage;
    if (message.type === 'event') {
      const event = message.event;
      if (event.type === 'message_update' && event.assistantMessageEvent.type === 'text_delta') {
        for (const token of event.assistantMessageEvent.delta.match(TOKEN) ?? [])
          client.received.push([token, at]);
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

interface Group {
  sessionId: string;
  clients: Client[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function loopDelayReport(server: Server): Promise<number[]> {
  const reported = server.loopDelays.length;
  process.kill(server.child.pid as number, 'SIGUSR2');
  while (server.loopDelays.length === reported) await sleep(10);
  return (server.loopDelays.at(-1) as string).split(' ').map(Number);
}

/**
 * Streams one prompt of `words` tokens in each session, the prompts sent at the given offsets
 * (ms from the start), and returns every client's per-chunk latency and the server's CPU.
 */
async function stream(
  model: ModelProcess,
  server: Server,
  groups: Group[],
  round: string,
  words: number,
  offsets: number[],
) {
  const serverPid = server.child.pid as number;
  for (const client of groups.flatMap((g) => g.clients)) client.received = [];
  await loopDelayReport(server);
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
    groups.map(async (group, s) => {
      await sleep(offsets[s] ?? 0);
      const prompt = Array.from({ length: words }, (_, i) => `S${s}R${round}W${i}`).join(' ');
      await (group.clients[0] as Client).request({
        type: 'prompt',
        sessionId: group.sessionId,
        text: prompt,
      });
    }),
  );
  await Promise.all(done);
  const wallMs = performance.now() - started;
  const serverCpuMs = cpuMs(serverPid) - cpuBefore;
  benchDelay.disable();
  const [, loopP99, loopMax] = await loopDelayReport(server);
  const sentAt = await model.collect();
  // While every session streams: from the last session's first chunk to the first session's
  // last one (prompts being started and streams ending fall outside).
  const sent = (s: number, w: number) => sentAt.get(`S${s}R${round}W${w}`) ?? NaN;
  const allStreaming = Math.max(...groups.map((_, s) => sent(s, 0)));
  const firstDone = Math.min(...groups.map((_, s) => sent(s, words - 1)));
  const latencies: number[] = [];
  const steady: number[] = [];
  for (const client of groups.flatMap((g) => g.clients)) {
    const seen = new Set<string>();
    for (const [token, at] of client.received) {
      const sentMs = sentAt.get(token);
      if (sentMs === undefined || seen.has(token)) continue;
      seen.add(token);
      latencies.push(at - sentMs);
      if (sentMs >= allStreaming && sentMs <= firstDone) steady.push(at - sentMs);
    }
  }
  latencies.sort((a, b) => a - b);
  steady.sort((a, b) => a - b);
  const chunks = groups.length * words;
  return {
    deliveries: latencies.length,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? NaN,
    /** Over the chunks sent while every session streamed. */
    steadyDeliveries: steady.length,
    steadyP50: percentile(steady, 50),
    steadyP99: percentile(steady, 99),
    wallMs,
    serverCpuPercent: (serverCpuMs / wallMs) * 100,
    serverCpuUsPerChunk: (serverCpuMs / chunks) * 1000,
    serverLoopP99: loopP99 as number,
    serverLoopMax: loopMax as number,
    benchLoopP99: benchDelay.percentile(99) / 1e6,
  };
}

type Result = Awaited<ReturnType<typeof stream>>;

async function openSessions(clients: Client[][], workspaceId: string): Promise<Group[]> {
  const groups: Group[] = [];
  for (const group of clients) {
    const response = await (group[0] as Client).request({ type: 'new_session', workspaceId });
    const sessionId = (response.data as { sessionId: string }).sessionId;
    await Promise.all(group.map((client) => client.request({ type: 'subscribe', sessionId })));
    groups.push({ sessionId, clients: group });
  }
  return groups;
}

async function run(config: ServerConfig, model: ModelProcess): Promise<[Scenario, Result][]> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-bench-ws-'));
  const workspace = path.join(root, 'workspace');
  fs.mkdirSync(workspace);
  const server = await startServer(config, path.join(root, 'data'), workspace, model.baseUrl);
  const wsUrl = `${server.url.replace('http', 'ws')}/api/ws`;
  const results: [Scenario, Result][] = [];
  try {
    const { workspaces } = (await (await fetch(`${server.url}/api/workspaces`)).json()) as {
      workspaces: { id: string }[];
    };
    const workspaceId = workspaces[0]?.id as string;

    if (SCENARIOS.includes('spread') || SCENARIOS.includes('burst')) {
      const pairs = await Promise.all(
        Array.from({ length: SESSIONS }, () => Promise.all([connect(wsUrl), connect(wsUrl)])),
      );
      const groups = await openSessions(pairs, workspaceId);
      const zero = groups.map(() => 0);
      await stream(model, server, groups, 'warm', WARMUP_WORDS, zero);
      if (SCENARIOS.includes('spread')) {
        const spread = groups.map(() => Math.random() * SPREAD_MS);
        results.push(['spread', await stream(model, server, groups, 'spread', WORDS, spread)]);
      }
      if (SCENARIOS.includes('burst'))
        results.push(['burst', await stream(model, server, groups, 'burst', WORDS, zero)]);
      for (const client of pairs.flat()) client.socket.close();
    }
    if (SCENARIOS.includes('fanout')) {
      const fanClients = await Promise.all(Array.from({ length: FANOUT }, () => connect(wsUrl)));
      const fan = await openSessions([fanClients], workspaceId);
      await stream(model, server, fan, 'warm', WARMUP_WORDS, [0]);
      results.push(['fanout', await stream(model, server, fan, 'fan', WORDS, [0])]);
      for (const client of fanClients) client.socket.close();
    }
    return results;
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
    fs.rmSync(root, { recursive: true, force: true });
  }
}

const fmt = (n: number) => n.toFixed(2);
const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

const configs: ServerConfig[] = [
  ...(WITH_FLOOR ? [{ kind: 'floor' as const, coalesceMs: 0, nodeArgs: VARIANTS[0] ?? [] }] : []),
  ...VARIANTS.flatMap((nodeArgs) =>
    COALESCING.map((coalesceMs) => ({ kind: 'arbor' as const, coalesceMs, nodeArgs })),
  ),
];

execSync('npm run build:server', { stdio: 'ignore' });
if (PIN) execSync(`taskset -p -c 1 ${process.pid}`, { stdio: 'ignore' });
const model = await startModel();
try {
  console.log(
    `bench/ws: ${SESSIONS} sessions × 2 clients, and 1 session × ${FANOUT} clients; ` +
      `${WORDS} chunks per stream, one every ${CHUNK_DELAY_MS} ms; ${os.cpus().length} cores; ` +
      `${ROUNDS} round(s)` +
      (PIN ? '; server pinned to core 0, model and clients to core 1' : ''),
  );
  console.log(`load average before: ${load()}`);
  console.log(
    '| round | server | scenario | chunk deliveries | p50 ms | p99 ms | max ms | all streaming: deliveries, p50 / p99 ms | server CPU | server CPU per chunk | server loop delay p99 / max | clients loop delay p99 |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  /** [round, config, scenario, result] of every measurement. */
  const all: [number, ServerConfig, Scenario, Result][] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const config of configs) {
      for (const [scenario, r] of await run(config, model)) {
        all.push([round, config, scenario, r]);
        console.log(
          `| ${round} | ${configName(config)} | ${SCENARIO_NAMES[scenario]} | ${r.deliveries} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${fmt(r.max)} | ${r.steadyDeliveries}: ${fmt(r.steadyP50)} / ${fmt(r.steadyP99)} | ${r.serverCpuPercent.toFixed(0)}% of a core for ${(r.wallMs / 1000).toFixed(1)} s | ${r.serverCpuUsPerChunk.toFixed(0)} µs | ${fmt(r.serverLoopP99)} / ${fmt(r.serverLoopMax)} ms | ${fmt(r.benchLoopP99)} ms |`,
        );
      }
    }
  }
  console.log(`load average after: ${load()}`);
  // Each figure below is the median over rounds; "added" compares Arbor with the floor of the
  // same round, scenario by scenario, so the machine's load at the time cancels out.
  console.log(`\nMedians over ${ROUNDS} round(s):\n`);
  const verdicts: string[] = [];
  console.log(
    '| server | scenario | p50 ms | p99 ms | p99 added over the floor, ms | all streaming: p99 ms | its p99 added over the floor, ms | server CPU per chunk | CPU per chunk over the floor |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const config of configs) {
    for (const scenario of SCENARIOS) {
      const mine = all.filter(([, c, s]) => c === config && s === scenario);
      if (mine.length === 0) continue;
      const floorOf = (round: number) =>
        all.find(([r, c, s]) => r === round && c.kind === 'floor' && s === scenario)?.[3];
      const over = (pick: (r: Result) => number) =>
        config.kind === 'floor' || !WITH_FLOOR
          ? '–'
          : fmt(median(mine.map(([round, , , r]) => pick(r) - pick(floorOf(round) as Result))));
      console.log(
        `| ${configName(config)} | ${SCENARIO_NAMES[scenario]} | ${fmt(median(mine.map(([, , , r]) => r.p50)))} | ${fmt(median(mine.map(([, , , r]) => r.p99)))} | ${over((r) => r.p99)} | ${fmt(median(mine.map(([, , , r]) => r.steadyP99)))} | ${over((r) => r.steadyP99)} | ${median(mine.map(([, , , r]) => r.serverCpuUsPerChunk)).toFixed(0)} µs | ${over((r) => r.serverCpuUsPerChunk)} µs |`,
      );
      if (config.kind === 'arbor' && scenario !== 'fanout' && WITH_FLOOR) {
        const added = median(mine.map(([round, , , r]) => r.p99 - (floorOf(round) as Result).p99));
        const ratio = median(
          mine.map(
            ([round, , , r]) =>
              r.serverCpuUsPerChunk / (floorOf(round) as Result).serverCpuUsPerChunk,
          ),
        );
        const meets = added < GOAL_ADDED_P99_MS && ratio <= GOAL_CPU_RATIO;
        verdicts.push(
          `${configName(config)}, ${SCENARIO_NAMES[scenario]}: ${fmt(added)} ms added at p99, ` +
            `${ratio.toFixed(2)}× the floor's CPU per chunk — ${meets ? 'meets' : 'misses'} the ` +
            `product's goal with coalescing off (under ${GOAL_ADDED_P99_MS} ms, at most ${GOAL_CPU_RATIO}×)`,
        );
      }
    }
  }
  console.log('');
  for (const verdict of verdicts) console.log(verdict);
} finally {
  await model.close();
}
