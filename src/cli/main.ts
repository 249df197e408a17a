/**
 * The `buzz-meta` command (bin.ts runs it). Exit codes, for scripts: 0 ok, 1 a check failed (`verify`), 2 usage
 * or input error. Every error is one line on stderr, `buzz-meta: ` first (commander's own usage errors too); no
 * stack traces.
 */
import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { CliError, EXIT } from './cli-error.js';
import { type CommandOutput, inspect, verify } from './inspect.js';
import { agentKey } from './agent-key.js';
import type { ProxyCommandOptions } from './proxy-command.js';
import type { ProxyIo } from '../proxy/run.js';
import { readBounded, readFileBounded } from './read-input.js';

const version = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** What a run prints and how it ends; the process wiring lives in {@link main}. */
interface Outcome {
  /** Written one after the other: text, or UTF-8 bytes (`inspect --json`). */
  readonly stdout: readonly (string | Uint8Array)[];
  /** Lines for stderr, each printed after `buzz-meta: `. */
  readonly stderr?: readonly string[];
  readonly exitCode: number;
}

/** The byte streams `proxy` relays, and where its agent's stderr goes (see `ProxyIo`). */
type ProxyStdio = Omit<ProxyIo, 'writeErr'>;

/** Where the command reads and writes; tests pass their own. */
interface CliIo {
  /** Writes to stdout (text, or UTF-8 bytes). */
  readonly writeOut: (text: string | Uint8Array) => void;
  /** Writes to stderr. */
  readonly writeErr: (text: string) => void;
  /** Stdin as a stream of chunks, or `null` when stdin is a terminal (nothing piped). */
  readonly openStdin: () => AsyncIterable<Uint8Array> | null;
  /** Environment variables (`BUZZ_AGENT_NPUB`, or its old name `BUZZ_AGENT_PUBKEY`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * Stdin and stdout as byte streams, for `proxy`, which relays them (with backpressure) for as long as it runs,
   * and where its agent's stderr goes.
   */
  readonly relayStdio: () => ProxyStdio;
}

/** The real process's stdio and environment. */
const processIo: CliIo = {
  writeOut: (text) => process.stdout.write(text),
  writeErr: (text) => process.stderr.write(text),
  openStdin: () => (process.stdin.isTTY ? null : process.stdin),
  env: process.env,
  relayStdio: () => ({ stdin: process.stdin, stdout: process.stdout, agentStderr: 'inherit' }),
};

/** The whole input, read with a bound (read-input.ts). */
async function readSource(file: string, io: CliIo): Promise<Uint8Array> {
  if (file === '-') {
    const piped = io.openStdin();
    if (piped === null) throw new CliError('no input: give a file, or pipe NDJSON into `-`');
    return readBounded(piped, 'stdin');
  }
  return readFileBounded(file);
}

/*
 * keygen.js (secp256k1) is imported by its own subcommands only: `inspect` on a
 * large capture is a start-up-bound command, and that module was a good part of its start-up.
 */
function program(io: CliIo, out: (outcome: Outcome | CommandOutput) => void): Command {
  const cli = new Command('buzz-meta')
    .description(
      'Inspect and verify the Buzz context (_meta.buzz) of ACP session/prompt traffic, or proxy an agent with it.',
    )
    .version(version)
    .addHelpText(
      'after',
      "\nExit codes: 0 ok, 1 a check failed (verify), 2 usage or input error; proxy: the agent's own.\n" +
        'BUZZ_AGENT_NPUB (the agent’s npub) is used when --agent-pubkey is not given.',
    );
  cli
    .command('inspect')
    .summary('print the Buzz context of every session/prompt, and the agent’s answer to it')
    .description(
      'print the Buzz context of every session/prompt in a request, params object or NDJSON capture, ' +
        'and the agent’s answer to it (the response with its id); lines that are not JSON are skipped ' +
        'and listed on stderr, and make the exit code 2',
    )
    .argument('[file]', 'input file, or - for stdin', '-')
    .option('--json', 'one JSON object per prompt (NDJSON) instead of the table')
    .addOption(keyOption())
    .action(async (file: string, options: { json?: boolean; agentPubkey?: string }) => {
      const key = agentKey(options.agentPubkey, io.env);
      const input = await readSource(file, io);
      out(await inspect(input, { json: options.json === true, agentPubkey: key?.key, keySource: key?.source }));
    });

  cli
    .command('verify')
    .description('exit 0 only when every v1 envelope verifies against the pinned key and no _meta.buzz fails to read')
    .argument('[file]', 'input file, or - for stdin', '-')
    .addOption(keyOption())
    .action(async (file: string, options: { agentPubkey?: string }) => {
      const key = agentKey(options.agentPubkey, io.env);
      if (key === undefined) throw new CliError('verify needs --agent-pubkey <npub|hex> (or BUZZ_AGENT_NPUB)');
      out(await verify(await readSource(file, io), key.key, key.source));
    });

  addKeyCommands(cli, out);
  addProxyCommand(cli, io, out);

  for (const command of [cli, ...cli.commands]) {
    const help = command === cli ? 'buzz-meta --help' : `buzz-meta ${command.name()} --help`;
    command.exitOverride().configureOutput({
      writeOut: io.writeOut,
      writeErr: io.writeErr,
      outputError: (text, write) => {
        write(`buzz-meta: ${usageError(text)}; see ${help}\n`);
      },
    });
  }
  return cli;
}

/** `--agent-pubkey`, as every command that reads envelopes takes it. */
function keyOption(): Option {
  return new Option(
    '--agent-pubkey <key>',
    'the agent’s own npub (or 64 hex) to verify envelopes against (default: $BUZZ_AGENT_NPUB)',
  );
}

/** `keygen`, `npub` and `hex`: the key commands, which load keygen.js (secp256k1) only when run. */
function addKeyCommands(cli: Command, out: (outcome: Outcome | CommandOutput) => void): void {
  cli
    .command('keygen')
    .description('make a key pair: the nsec for the host, the npub for the agent to pin')
    .option('--json', 'print {"nsec","npub","hex"} as JSON')
    .action(async (options: { json?: boolean }) => {
      const { keygen, renderKeyPair } = await import('./keygen.js');
      const pair = keygen();
      out({ stdout: [options.json === true ? JSON.stringify(pair) + '\n' : renderKeyPair(pair)], exitCode: EXIT.ok });
    });

  cli
    .command('npub')
    .description('print a pubkey (64 hex or npub) as an npub')
    .argument('<key>', 'pubkey, 64 hex digits or an npub')
    .action(async (key: string) => {
      const { convertKey } = await import('./keygen.js');
      out({ stdout: [convertKey(key, 'npub') + '\n'], exitCode: EXIT.ok });
    });

  cli
    .command('hex')
    .description('print a pubkey (npub or 64 hex) as 64 lowercase hex digits')
    .argument('<key>', 'pubkey, an npub or 64 hex digits')
    .action(async (key: string) => {
      const { convertKey } = await import('./keygen.js');
      out({ stdout: [convertKey(key, 'hex') + '\n'], exitCode: EXIT.ok });
    });
}

/** `proxy`: the relay in front of an agent, loaded only when run. */
function addProxyCommand(cli: Command, io: CliIo, out: (outcome: Outcome | CommandOutput) => void): void {
  cli
    .command('proxy')
    .description('run an ACP agent behind a relay that reads each session/prompt and forwards _meta.buzzContext')
    .usage('[options] -- <agent command> [args...]')
    .argument('<agent...>', 'the agent command and its arguments, after --')
    .addOption(keyOption())
    .addOption(new Option('--min-trust <trust>', 'refuse weaker contexts').choices(['verified', 'asserted', 'scraped']))
    .addOption(
      new Option('--missing <policy>', 'a prompt without Buzz context: pass it on, or refuse it')
        .choices(['pass', 'refuse'])
        .default('pass'),
    )
    .option('--no-scrape', 'never read Buzz context from prompt text')
    .option('--limits <json>', 'reader bounds as a JSON object, e.g. \'{"maxEvents":20}\'')
    .option('--dedup <store>', 'claim each event once: "memory", or a redis:// URL (needs the redis package)')
    .option('--dedup-prefix <prefix>', 'key prefix in Redis (default buzz:dedup:)')
    .option('--dedup-fail-closed', 'a failed store call fails the prompt, for the host to retry (default: act on it)')
    .option('--key-prefix <prefix>', 'prefix of the keys in _meta.buzzContext (default buzz)')
    .option('--drop-buzz', 'remove _meta.buzz from forwarded prompts (kept by default)')
    .option('--record <file>', 'append the host side of the traffic to file as NDJSON (what inspect reads)')
    .option('--pass-through', 'read nothing: relay and record only')
    // The ACP SDK's own message limit (DEFAULT_MAX_MESSAGE_BYTES), not imported: the command runs without the SDK.
    .option('--max-line-bytes <n>', 'longest message relayed, in bytes', String(32 * 1024 * 1024))
    .addOption(
      new Option('--log-level <level>', 'stderr lines: faults only, also answers the proxy gives, or every prompt')
        .choices(['quiet', 'info', 'debug'])
        .default('info'),
    )
    .action(async (agent: string[], options: ProxyCommandOptions) => {
      const { proxyCommand } = await import('./proxy-command.js');
      const exitCode = await proxyCommand(agent, options, agentKey(options.agentPubkey, io.env), {
        ...io.relayStdio(),
        writeErr: io.writeErr,
      });
      out({ stdout: [], exitCode });
    });
}

/**
 * Commander's usage error in the command's own style: one line, without its `error: ` prefix
 * (`error: unknown option '--jsn'\n(Did you mean --json?)` becomes
 * `unknown option '--jsn' (did you mean --json?)`).
 */
function usageError(text: string): string {
  return text
    .replace(/^error: /, '')
    .split('\n')
    .filter((line) => line !== '')
    .join(' ')
    .replace('(Did you mean', '(did you mean');
}

/** Runs the command with `argv` (user arguments only); returns the exit code. Never throws. */
export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  let exitCode: number = EXIT.ok;
  // An action calls this once, after everything it prints is known: a run that throws prints nothing.
  const end = (outcome: Outcome | CommandOutput): void => {
    for (const chunk of outcome.stdout) io.writeOut(chunk);
    for (const line of outcome.stderr ?? []) io.writeErr(`buzz-meta: ${line}\n`);
    exitCode = outcome.exitCode;
  };
  try {
    await program(io, end).parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander already printed help, the version or its one-line usage error.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    const message =
      error instanceof CliError
        ? error.message
        : `internal error (${error instanceof Error ? error.name : typeof error})`;
    io.writeErr(`buzz-meta: ${message}\n`);
    return error instanceof CliError ? error.exitCode : EXIT.usage;
  }
  return exitCode;
}
