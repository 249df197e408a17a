#!/usr/bin/env node
/** The `buzz-meta` executable: runs the command and exits with its code (see main.ts). */
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2));
