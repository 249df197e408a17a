/**
 * `buzz-meta inspect` and `buzz-meta verify`: read every `session/prompt` of the input with
 * buzz-meta's own reader and print what it concluded.
 */
import { BuzzMetaError } from '../errors.js';
import { createBuzzReader } from '../read/reader.js';
import { escapeUnprintableJson } from '../shared/utf16.js';
import { CliError, EXIT } from './cli-error.js';
import { forEachPrompt } from './input.js';
import { OutputLines } from './output.js';
import { renderTable, shown } from './render.js';
import { type PromptReport, promptReport } from './report.js';

/** Options of {@link inspect}. */
interface InspectOptions {
  /** Print one JSON object per prompt (NDJSON) instead of the table. */
  readonly json?: boolean;
  /** Pinned agent key: v1 envelopes must verify against it. */
  readonly agentPubkey?: string | undefined;
}

/**
 * Reads every prompt of `bytes` with an optional pinned key and passes its report to `onReport`,
 * one at a time (a capture of many prompts is never held whole); returns how many other messages
 * were skipped.
 */
async function forEachReport(
  bytes: Uint8Array,
  agentPubkey: string | undefined,
  onReport: (report: PromptReport) => void,
): Promise<{ skipped: number }> {
  const reader = await readerFor(agentPubkey);
  const { skipped } = forEachPrompt(bytes, (found) => {
    onReport(promptReport(found, reader.read(found.params)));
  });
  return { skipped };
}

/** The reports of every prompt of `bytes`, read with an optional pinned key. */
async function readReports(
  bytes: Uint8Array,
  agentPubkey: string | undefined,
): Promise<{ reports: PromptReport[]; skipped: number }> {
  const reports: PromptReport[] = [];
  const { skipped } = await forEachReport(bytes, agentPubkey, (report) => reports.push(report));
  return { reports, skipped };
}

async function readerFor(agentPubkey: string | undefined) {
  try {
    return await createBuzzReader(agentPubkey === undefined ? { backend: 'js' } : { agentPubkey });
  } catch (error) {
    const reason = error instanceof BuzzMetaError ? error.reason : 'invalid key';
    throw new CliError(`--agent-pubkey: ${reason}`);
  }
}

/** `inspect`: what to print for `bytes`, in pieces (UTF-8 bytes for `--json`). Exit code 0 whatever the prompts say. */
export async function inspect(bytes: Uint8Array, options: InspectOptions): Promise<readonly (string | Uint8Array)[]> {
  if (options.json === true) {
    // Serialized as they come, so each report is garbage at once instead of kept to the end;
    // escaped like the table, so a received string sends nothing to a terminal the JSON is shown on.
    const lines = new OutputLines();
    await forEachReport(bytes, options.agentPubkey, (report) => {
      lines.push(escapeUnprintableJson(JSON.stringify(report)));
    });
    return lines.chunks();
  }
  const { reports, skipped } = await readReports(bytes, options.agentPubkey);
  return [renderTable(reports, skipped)];
}

/**
 * `verify`: one line per prompt (the first failing check when it fails), a summary, and the exit
 * code: 0 only when every v1 envelope verified and no `_meta.buzz` failed to read. A draft that
 * fails to read fails the run: an envelope a man in the middle rewrote reads that way.
 */
export async function verify(bytes: Uint8Array, agentPubkey: string): Promise<{ text: string; exitCode: number }> {
  const { reports } = await readReports(bytes, agentPubkey);
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
  if (envelopes === 0) {
    lines.push(`no v1 envelope in the input: nothing verified${drafts}`);
    return { text: lines.join('\n') + '\n', exitCode: EXIT.checkFailed };
  }
  lines.push(`${String(envelopes - failed)}/${String(envelopes)} v1 envelopes verified${drafts}`);
  const exitCode = failed === 0 && brokenDrafts === 0 ? EXIT.ok : EXIT.checkFailed;
  return { text: lines.join('\n') + '\n', exitCode };
}
