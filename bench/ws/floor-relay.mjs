// The floor for bench/ws: the least a Node server can do to relay a model's streamed chunks to
// WebSocket clients. It speaks just enough of Arbor's protocol for the benchmark's clients
// (hello, new_session, subscribe, prompt; text deltas and agent_end as events), reads each model
// stream with node:http (`FLOOR_HTTP=fetch`: with Node's fetch) and a bare SSE split, and writes
// one frame per chunk to every subscriber with the same `ws` library as Arbor. No agent loop, no session file, no coalescing, no replay.
// Measured in the same run as Arbor, it is what the machine, the network stack and the clients
// cost; what Arbor adds is the difference. Reports its event-loop delay on SIGUSR2, as
// server-process.mjs does.
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { WebSocketServer } from 'ws';

const modelUrl = process.argv[2];
const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
process.on('SIGUSR2', () => {
  const ms = (ns) => (ns / 1e6).toFixed(1);
  process.stderr.write(
    `LOOP_DELAY ${ms(delay.percentile(50))} ${ms(delay.percentile(99))} ${ms(delay.max)}\n`,
  );
  delay.reset();
});

/** sessionId → subscribed sockets */
const sessions = new Map();
let nextSession = 0;

async function relay(sessionId, text) {
  const sockets = sessions.get(sessionId) ?? [];
  const send = (event) => {
    const frame = JSON.stringify({ type: 'event', sessionId, event });
    for (const socket of sockets) socket.send(frame);
  };
  if (process.env.FLOOR_HTTP !== 'fetch') return relayNode(text, send);
  const response = await fetch(`${modelUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'arbor-demo',
      stream: true,
      messages: [{ role: 'user', content: text }],
    }),
  });
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const bytes of response.body) {
    buffered += decoder.decode(bytes, { stream: true });
    let end;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
      const delta = JSON.parse(line.slice(6)).choices[0]?.delta?.content;
      if (delta)
        send({ type: 'message_update', assistantMessageEvent: { type: 'text_delta', delta } });
    }
  }
  send({ type: 'agent_end' });
}

function relayNode(text, send) {
  const body = JSON.stringify({
    model: 'arbor-demo',
    stream: true,
    messages: [{ role: 'user', content: text }],
  });
  const request = http.request(`${modelUrl}/chat/completions`, {
    method: 'POST',
    agent,
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  request.end(body);
  request.on('response', (response) => {
    response.setEncoding('utf8');
    let buffered = '';
    response.on('data', (part) => {
      buffered += part;
      let end;
      while ((end = buffered.indexOf('\n\n')) >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
        const delta = JSON.parse(line.slice(6)).choices[0]?.delta?.content;
        if (delta)
          send({ type: 'message_update', assistantMessageEvent: { type: 'text_delta', delta } });
      }
    });
    response.on('end', () => send({ type: 'agent_end' }));
  });
}
const agent = new http.Agent({ keepAlive: true });

const server = http.createServer((req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ workspaces: [{ id: 'floor' }] }));
});
new WebSocketServer({ server, path: '/api/ws' }).on('connection', (socket) => {
  socket.on('message', (data) => {
    const frame = JSON.parse(String(data));
    const answer = (extra) =>
      socket.send(JSON.stringify({ type: 'response', id: frame.id, ok: true, ...extra }));
    if (frame.type === 'hello') socket.send(JSON.stringify({ type: 'welcome' }));
    else if (frame.type === 'new_session') {
      const sessionId = `floor-${nextSession++}`;
      sessions.set(sessionId, []);
      answer({ data: { sessionId } });
    } else if (frame.type === 'subscribe') {
      sessions.get(frame.sessionId)?.push(socket);
      answer({});
    } else if (frame.type === 'prompt') {
      answer({});
      void relay(frame.sessionId, frame.text);
    }
  });
  socket.on('close', () => {
    for (const sockets of sessions.values()) {
      const at = sockets.indexOf(socket);
      if (at >= 0) sockets.splice(at, 1);
    }
  });
});
server.listen(0, '127.0.0.1', () => {
  console.log(`running at http://127.0.0.1:${server.address().port}`);
});
// Exit through Node on SIGTERM, so `--cpu-prof` and friends write their files.
process.on('SIGTERM', () => process.exit(0));
