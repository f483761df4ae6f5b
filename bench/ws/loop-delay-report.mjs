// The server side of bench/ws's event-loop measurement: on SIGUSR2, writes the loop's delay since
// the last report (p50/p99/max, ms) to stderr as a `LOOP_DELAY` line and starts anew. Shared by
// server-process.mjs (Arbor) and floor-relay.mjs.
import { monitorEventLoopDelay } from 'node:perf_hooks';

const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
process.on('SIGUSR2', () => {
  const ms = (ns) => (ns / 1e6).toFixed(1);
  process.stderr.write(
    `LOOP_DELAY ${ms(delay.percentile(50))} ${ms(delay.percentile(99))} ${ms(delay.max)}\n`,
  );
  delay.reset();
});
