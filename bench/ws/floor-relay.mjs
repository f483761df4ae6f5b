// The floor for bench/ws: the least a Node server can do to relay a model's streamed chunks to
// WebSocket clients. It speaks just enough of Arbor's protocol for the benchmark's clients
// (hello, new_session, subscribe, prompt; text deltas and agent_end as events), reads each model
// stream with node:http (`FLOOR_HTTP=fetch`: with Node's fetch) and a bare SSE split, and writes
// one frame per chunk to every subscriber with the same `ws` library as Arbor. No agent loop, no session file, no coalescing, no replay.
// Measured in the same run as Arbor, it is what the machine, the network stack and the clients
// cost; what Arbor adds is the difference. Reports its event-loop delay on SIGUSR2
// (loop-delay-report.mjs), as server-process.mjs does.
import http from 'node:http';
import { WebSocketServer } from 'ws';
import './loop-delay-report.mjs';

const modelUrl = process.argv[2];
const agent = new http.Agent({ keepAlive: true });

/** sessionId → subscribed sockets */
const sessions = new Map();
let nextSession = 0;

async function relay(sessionId, text) {
  const sockets = sessions.get(sessionId) ?? [];
  const send = (event) => {
    const frame = JSON.stringify({ type: 'event', sessionId, event });
    for (const socket of sockets) socket.send(frame);
  };
  const body = JSON.stringify({
    model: 'arbor-demo',
    stream: true,
    messages: [{ role: 'user', content: text }],
  });
  const read = sseReader((delta) =>
    send({ type: 'message_update', assistantMessageEvent: { type: 'text_delta', delta } }),
  );
  if (process.env.FLOOR_HTTP === 'fetch') {
    const response = await fetch(`${modelUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const decoder = new TextDecoder();
    for await (const bytes of response.body) read(decoder.decode(bytes, { stream: true }));
    send({ type: 'agent_end' });
    return;
  }
  const request = http.request(`${modelUrl}/chat/completions`, {
    method: 'POST',
    agent,
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  request.end(body);
  request.on('response', (response) => {
    response.setEncoding('utf8');
    response.on('data', read);
    response.on('end', () => send({ type: 'agent_end' }));
  });
}

/** A bare SSE split: text in as it arrives, each chunk's content delta out. */
function sseReader(onDelta) {
  let buffered = '';
  return (text) => {
    buffered += text;
    let end;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
      const delta = JSON.parse(line.slice(6)).choices[0]?.delta?.content;
      if (delta) onDelta(delta);
    }
  };
}

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
