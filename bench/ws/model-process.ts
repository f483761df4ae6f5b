// Runs the timed demo model in its own process, so its 10,000 writes a second do not share an
// event loop with the benchmark's clients. Protocol over the IPC channel: it sends
// `{ baseUrl }` once listening; on `'collect'` it answers `{ sentAt: [token, ms][] }` and forgets
// them; on `'close'` it exits.
import { startTimedDemoModel } from './timed-demo-model.js';

const model = await startTimedDemoModel(Number(process.env.CHUNK_DELAY_MS ?? 5));
process.send?.({ baseUrl: model.baseUrl });
process.on('message', (message) => {
  if (message === 'collect') {
    process.send?.({ sentAt: [...model.sentAt] });
    model.sentAt.clear();
  } else if (message === 'close') {
    void model.close().then(() => process.exit(0));
  }
});
