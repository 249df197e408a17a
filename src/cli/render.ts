/**
 * The terminal form of `inspect`: one block per prompt, a label column and a value column,
 * no line wider than 80 columns for the default key prefix (hex ids and keys sit on their own
 * lines). Every value is printed through {@link shown}: a received string (a request id, a
 * diagnostic naming a key) never writes a control character to the terminal.
 */
import { printable } from '../shared/utf16.js';
import type { AnswerReport } from './answers.js';
import type { EventReport, PromptReport } from './report.js';

const LABEL = 12;

const WIDTH = 80;

/** A string request id is the requester's choice of any length: the heading shows its start. */
const MAX_REQUEST_ID = 64;

/**
 * `text` as the table prints it: control, format and line/paragraph separator characters as
 * U+FFFD, so no received text starts a line of its own or sends a terminal escape sequence.
 */
export function shown(text: string, max = Number.POSITIVE_INFINITY): string {
  return printable(text, max);
}

/** One label/value line; values line up in one column whatever the indent. */
function row(label: string, value: string, indent = 2): string {
  return `${' '.repeat(indent)}${label.padEnd(LABEL + 2 - indent)}${shown(value)}`;
}

/** A sentence as label/value rows wrapped at word boundaries to 80 columns. */
function wrapped(label: string, text: string): string[] {
  const room = WIDTH - 2 - LABEL;
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(' ')) {
    if (current !== '' && current.length + 1 + word.length > room) {
      lines.push(current);
      current = word;
    } else current = current === '' ? word : `${current} ${word}`;
  }
  lines.push(current);
  return lines.map((line, i) => row(i === 0 ? label : '', line));
}

function eventRows(title: string, events: readonly EventReport[]): string[] {
  return events.flatMap((event, index) => [
    row(
      `${title} ${String(index + 1)}`,
      `kind ${event.kind === null ? '?' : String(event.kind)}, ${event.time ?? 'time ?'}`,
    ),
    row('id', event.id ?? '(not rendered)', 4),
    row('sender', event.sender, 4),
    row('', event.npub, 4),
  ]);
}

/** What the agent answered, in words: `line 7: refusal (refused, trust_too_low)`. */
function answerText(answer: AnswerReport): string {
  const said = answer.error === null ? (answer.stopReason ?? 'a result without stopReason') : errorText(answer.error);
  const why = [answer.outcome, answer.code].filter((part) => part !== null);
  return `line ${String(answer.line)}: ${said}${why.length === 0 ? '' : ` (${why.join(', ')})`}`;
}

function errorText(error: NonNullable<AnswerReport['error']>): string {
  return `error ${error.code === null ? '?' : String(error.code)} ${error.message}`.trimEnd();
}

/**
 * The block of one prompt, lines without a trailing newline. `withResponses`: the input holds
 * responses, so a prompt without one is worth saying (a lone request has none to show).
 */
function renderPrompt(report: PromptReport, index: number, withResponses = false): string[] {
  const id = report.requestId === null ? '' : `, request id ${shown(String(report.requestId), MAX_REQUEST_ID)}`;
  const lines = [`prompt ${String(index + 1)} (line ${String(report.line)}${id})`];
  // A bare params object is no request: nothing can answer it.
  if (report.answer !== null) lines.push(...wrapped('answer', answerText(report.answer)));
  else if (withResponses && report.requestId !== null) lines.push(row('answer', 'none in the input'));
  if (!report.ok) {
    lines.push(row('error', report.error.code), row('at', report.error.path === '' ? '(params)' : report.error.path));
    lines.push(...wrapped('why', report.error.message));
    return lines;
  }
  lines.push(row('source', `${report.source}, trust ${report.trust}`));
  lines.push(row('channel', `${report.channel.type} ${report.channel.id}`));
  if (report.deliveryId !== null) lines.push(row('delivery', report.deliveryId));
  if (report.events.length === 0) lines.push(row('events', 'none'));
  lines.push(...eventRows('event', report.events), ...eventRows('cancelled', report.cancelledEvents));
  lines.push('  keys');
  const keys = [
    report.keys.channel,
    ...report.keys.senders,
    ...(report.keys.thread === null ? [] : [report.keys.thread]),
  ];
  for (const key of keys) lines.push(`    ${shown(key)}`);
  for (const note of report.diagnostics) lines.push(...wrapped('note', note));
  return lines;
}

/** What the summary line counts besides the prompts. */
export interface TableCounts {
  /** Other messages skipped. */
  readonly skipped: number;
  /** Prompts whose answer was found. */
  readonly answered: number;
  /** Responses in the input (to prompts or not). */
  readonly responses: number;
  /** Lines that could not be read. */
  readonly badLines: number;
}

/** `1 line` / `2 lines`. */
function counted(count: number, noun: string): string {
  return `${String(count)} ${noun}${count === 1 ? '' : 's'}`;
}

/** The whole table: every prompt's block, then a summary line. */
export function renderTable(reports: readonly PromptReport[], counts: TableCounts): string {
  const { skipped, answered, responses, badLines } = counts;
  const blocks = reports.map((report, index) => renderPrompt(report, index, responses > 0).join('\n'));
  const failed = reports.filter((r) => !r.ok).length;
  const summary =
    `${counted(reports.length, 'prompt')}, ${String(failed)} failed to read` +
    (answered > 0 ? `, ${String(answered)} answered` : '') +
    (skipped > 0 ? `, ${counted(skipped, 'other message')} skipped` : '') +
    (badLines > 0 ? `, ${counted(badLines, 'line')} not read` : '');
  return [...blocks, summary].join('\n\n') + '\n';
}
