/**
 * `buzz-meta inspect` and `buzz-meta verify`: read every `session/prompt` of the input with
 * buzz-meta's own reader, pair it with the agent's answer, and print what was concluded. Lines
 * that are not JSON are passed over and listed on stderr; they make the exit code 2 at the end.
 */
import { BuzzMetaError } from '../errors.js';
import type { BuzzReadResult } from '../read/read.js';
import { createBuzzReader } from '../read/reader.js';
import { escapeUnprintableJson } from '../shared/utf16.js';
import { type AnswerReport, answerReport, PendingAnswers } from './answers.js';
import { CliError, EXIT } from './cli-error.js';
import { type BadLine, describeBadLine, type FoundPrompt, forEachMessage } from './input.js';
import { OutputLines } from './output.js';
import { renderTable, shown, type TableCounts } from './render.js';
import { type PromptReport, promptReport } from './report.js';

/** Options of {@link inspect}. */
interface InspectOptions {
  /** Print one JSON object per prompt (NDJSON) instead of the table. */
  readonly json?: boolean;
  /** Pinned agent key: v1 envelopes must verify against it. */
  readonly agentPubkey?: string | undefined;
  /** Where the key came from (`--agent-pubkey`, `BUZZ_AGENT_NPUB`), to name it when it is bad. */
  readonly keySource?: string | undefined;
}

/** What a run of `inspect` or `verify` prints, and its exit code. */
export interface CommandOutput {
  /** Written to stdout one after the other: text, or UTF-8 bytes (`inspect --json`). */
  readonly stdout: readonly (string | Uint8Array)[];
  /** Lines for stderr (without the `buzz-meta: ` prefix and the newline). */
  readonly stderr: readonly string[];
  readonly exitCode: number;
}

/** Counts of what the input held besides the reported prompts. */
interface InputCounts {
  /** Other messages (other methods, responses to no prompt). */
  readonly skipped: number;
  /** Prompts whose answer was found. */
  readonly answered: number;
  /** Responses in the input (to prompts or not). */
  readonly responses: number;
  /** Lines that could not be read. */
  readonly badLines: readonly BadLine[];
}

/** A prompt read, waiting for its answer. */
interface Slot {
  readonly found: FoundPrompt;
  readonly read: BuzzReadResult;
  answer: AnswerReport | null;
  /** Whether the report may be printed: answered, or never to be (no request id). */
  ready: boolean;
}

/**
 * Reads every prompt of `bytes` with an optional pinned key and passes its report, with its answer,
 * to `onReport` in input order: each as soon as its answer is found (a capture of many prompts is
 * never held whole), the unanswered ones at the end.
 */
async function forEachReport(
  bytes: Uint8Array,
  key: { readonly agentPubkey?: string | undefined; readonly keySource?: string | undefined },
  onReport: (report: PromptReport) => void,
): Promise<InputCounts> {
  const reader = await readerFor(key.agentPubkey, key.keySource ?? '--agent-pubkey');
  const queue: Slot[] = [];
  let head = 0;
  const flush = (all: boolean): void => {
    for (let slot = queue[head]; slot !== undefined && (all || slot.ready); slot = queue[++head]) {
      onReport(promptReport(slot.found, slot.read, slot.answer));
    }
    if (head === queue.length) {
      queue.length = 0;
      head = 0;
    }
  };
  const pending = new PendingAnswers<Slot>();
  const badLines: BadLine[] = [];
  let answered = 0;
  let responses = 0;
  const { skipped } = forEachMessage(bytes, {
    prompt: (found) => {
      const slot: Slot = { found, read: reader.read(found.params), answer: null, ready: found.requestId === null };
      queue.push(slot);
      if (found.requestId !== null) pending.addPrompt(found.requestId, slot);
      flush(false);
    },
    otherRequest: (id) => {
      pending.addOther(id);
    },
    response: (response) => {
      responses++;
      const slot = pending.answer(response);
      if (slot === undefined) return false;
      slot.answer = answerReport(response);
      slot.ready = true;
      answered++;
      flush(false);
      return true;
    },
    badLine: (bad) => badLines.push(bad),
  });
  flush(true);
  return { skipped, answered, responses, badLines };
}

async function readerFor(agentPubkey: string | undefined, keySource: string) {
  try {
    return await createBuzzReader(agentPubkey === undefined ? { backend: 'js' } : { agentPubkey });
  } catch (error) {
    const reason = error instanceof BuzzMetaError ? error.reason : 'invalid key';
    throw new CliError(`${keySource}: ${reason}`);
  }
}

/** The most bad lines listed one by one; the rest are counted. */
const MAX_LISTED = 10;

/** The stderr lines for the input's bad lines (none when there are none). */
function badLineMessages(badLines: readonly BadLine[]): string[] {
  const count = badLines.length;
  if (count === 0) return [];
  const listed = badLines.slice(0, MAX_LISTED).map(describeBadLine);
  const lines = `${String(count)} line${count === 1 ? '' : 's'}`;
  const rest = count > MAX_LISTED ? ` (the first ${String(MAX_LISTED)} are listed)` : '';
  return [...listed, `skipped ${lines} that could not be read${rest}`];
}

/**
 * `inspect`: what to print for `bytes`, in pieces (UTF-8 bytes for `--json`). Exit code 0 whatever
 * the prompts say, 2 when a line could not be read.
 */
export async function inspect(bytes: Uint8Array, options: InspectOptions): Promise<CommandOutput> {
  let counts: InputCounts;
  let stdout: readonly (string | Uint8Array)[];
  if (options.json === true) {
    // Serialized as they come, so each report is garbage at once instead of kept to the end;
    // escaped like the table, so a received string sends nothing to a terminal the JSON is shown on.
    const lines = new OutputLines();
    counts = await forEachReport(bytes, options, (report) => {
      lines.push(escapeUnprintableJson(JSON.stringify(report)));
    });
    stdout = lines.chunks();
  } else {
    const reports: PromptReport[] = [];
    counts = await forEachReport(bytes, options, (report) => reports.push(report));
    const table: TableCounts = { ...counts, badLines: counts.badLines.length };
    stdout = [renderTable(reports, table)];
  }
  const stderr = badLineMessages(counts.badLines);
  return { stdout, stderr, exitCode: counts.badLines.length > 0 ? EXIT.usage : EXIT.ok };
}

/**
 * `verify`: one line per prompt (the first failing check when it fails), a summary, and the exit
 * code: 0 only when every v1 envelope verified and no `_meta.buzz` failed to read (1 otherwise), 2
 * when a line of the input could not be read. A draft that fails to read fails the run: an
 * envelope a man in the middle rewrote reads that way.
 */
export async function verify(bytes: Uint8Array, agentPubkey: string, keySource: string): Promise<CommandOutput> {
  const reports: PromptReport[] = [];
  const { badLines } = await forEachReport(bytes, { agentPubkey, keySource }, (report) => reports.push(report));
  const lines: string[] = [];
  let envelopes = 0;
  let failed = 0;
  let brokenDrafts = 0;
  reports.forEach((report, index) => {
    const where = `prompt ${String(index + 1)} (line ${String(report.line)})`;
    if (report.ok) {
      if (report.source !== 'envelope-v1') {
        lines.push(`${where}: skipped, not a v1 envelope (${report.source})`);
        return;
      }
      envelopes++;
      lines.push(`${where}: verified`);
      return;
    }
    if (report.error.code === 'no_buzz_context') {
      lines.push(`${where}: skipped, no v1 envelope (${report.error.code})`);
      return;
    }
    if (report.error.code === 'invalid_draft') brokenDrafts++;
    else {
      envelopes++;
      failed++;
    }
    const { code, path, message } = report.error;
    lines.push(shown(`${where}: FAILED ${code} at ${path || '(params)'}: ${message}`));
  });
  const drafts =
    brokenDrafts === 0 ? '' : `, ${String(brokenDrafts)} unsigned _meta.buzz failed to read (invalid_draft)`;
  const stderr = badLineMessages(badLines);
  const unread = badLines.length === 0 ? undefined : EXIT.usage;
  if (envelopes === 0) {
    lines.push(`no v1 envelope in the input: nothing verified${drafts}`);
    return { stdout: [lines.join('\n') + '\n'], stderr, exitCode: unread ?? EXIT.checkFailed };
  }
  lines.push(`${String(envelopes - failed)}/${String(envelopes)} v1 envelopes verified${drafts}`);
  const exitCode = failed === 0 && brokenDrafts === 0 ? EXIT.ok : EXIT.checkFailed;
  return { stdout: [lines.join('\n') + '\n'], stderr, exitCode: unread ?? exitCode };
}
