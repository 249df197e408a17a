#!/usr/bin/env node
/** The `buzz-meta` executable: runs the command and exits with its code (see main.ts). */
import { main } from './main.js';

// A reader that stops early (`buzz-meta inspect capture.ndjson | head`) closes the pipe: the
// output ends there, quietly, as for any Unix tool; it is not an error worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

process.exitCode = await main(process.argv.slice(2));
