// Preloaded (NODE_OPTIONS=--import) into examples/first-host.ts and the agent it spawns: in the
// agent, and only there, it stands for an agent that answers `initialize` with a JSON-RPC error
// and then hangs, ignoring the end of its stdin, and writes its pid to BUZZ_META_TEST_PID_FILE.
import { writeFileSync } from 'node:fs';
import { setInterval } from 'node:timers';

if (process.argv[1]?.endsWith('first-agent.ts')) {
  writeFileSync(process.env.BUZZ_META_TEST_PID_FILE ?? '', String(process.pid));
  process.stdin.once('data', () => {
    process.stdout.write('{"jsonrpc":"2.0","id":0,"error":{"code":-32603,"message":"Internal error"}}\n');
  });
  setInterval(() => undefined, 60_000);
  // The agent itself never starts.
  await new Promise(() => undefined);
}
