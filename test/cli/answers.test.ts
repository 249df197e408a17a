/**
 * `inspect` pairs each prompt with the agent's answer: the response with the prompt's JSON-RPC id
 * (a result's stop reason and the wrapper's outcome, or an error with buzz-meta's code), also when
 * the agent's own requests to the host reuse the id, when an id is a string or a number, and when
 * the answer never came. Exact table rows and `--json` fields.
 */
import { describe, expect, test } from 'vitest';
import { runCli } from './run.js';

const PARAMS = '{"sessionId":"s","prompt":[]}';
const prompt = (id: string | number) =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"session/prompt","params":${PARAMS}}`;
const result = (id: string | number, body: unknown) => JSON.stringify({ jsonrpc: '2.0', id, result: body });
const error = (id: string | number, body: unknown) => JSON.stringify({ jsonrpc: '2.0', id, error: body });

/** The `answer` field of each `--json` report, and the table's answer rows and summary. */
async function answers(lines: string[]): Promise<{ json: unknown[]; rows: string[]; summary: string | undefined }> {
  const input = lines.join('\n') + '\n';
  const json = await runCli(['inspect', '--json'], input);
  const table = await runCli(['inspect'], input);
  expect([json.code, json.stderr, table.code, table.stderr]).toEqual([0, '', 0, '']);
  return {
    json: json.stdout
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as { answer: unknown }).answer),
    rows: table.stdout.split('\n').filter((line) => line.startsWith('  answer')),
    summary: table.stdout.trimEnd().split('\n').at(-1),
  };
}

describe('inspect: the agent’s answer to each prompt', () => {
  test('a refusal, an all-seen redelivery, and an error with buzz-meta’s code and outcome', async () => {
    const held = {
      code: -32603,
      message: 'Internal error',
      data: { details: 'held', code: 'dedup_events_held', buzzMeta: { outcome: 'held', held: 1 } },
    };
    expect(
      await answers([
        prompt(1),
        result(1, { stopReason: 'refusal', _meta: { buzzMeta: { outcome: 'refused', code: 'trust_too_low' } } }),
        prompt(2),
        result(2, { stopReason: 'end_turn', _meta: { buzzMeta: { outcome: 'all-seen', seen: 2 } } }),
        prompt(3),
        error(3, held),
        prompt(4),
        error(4, { code: -32603, message: 'Internal error', data: { details: 'handler failed' } }),
      ]),
    ).toEqual({
      json: [
        { line: 2, stopReason: 'refusal', outcome: 'refused', code: 'trust_too_low', error: null },
        { line: 4, stopReason: 'end_turn', outcome: 'all-seen', code: null, error: null },
        {
          line: 6,
          stopReason: null,
          outcome: 'held',
          code: 'dedup_events_held',
          error: { code: -32603, message: 'Internal error' },
        },
        { line: 8, stopReason: null, outcome: null, code: null, error: { code: -32603, message: 'Internal error' } },
      ],
      rows: [
        '  answer      line 2: refusal (refused, trust_too_low)',
        '  answer      line 4: end_turn (all-seen)',
        '  answer      line 6: error -32603 Internal error (held, dedup_events_held)',
        '  answer      line 8: error -32603 Internal error',
      ],
      summary: '4 prompts, 4 failed to read, 4 answered',
    });
  });

  test('the agent’s own request with the same id is answered by the host: that answer is not the prompt’s', async () => {
    const permission = '{"jsonrpc":"2.0","id":7,"method":"session/request_permission","params":{}}';
    expect(
      await answers([
        prompt(7),
        permission,
        result(7, { outcome: { outcome: 'selected', optionId: 'allow' } }),
        result(7, { stopReason: 'end_turn' }),
      ]),
    ).toEqual({
      json: [{ line: 4, stopReason: 'end_turn', outcome: null, code: null, error: null }],
      rows: ['  answer      line 4: end_turn'],
      summary: '1 prompt, 1 failed to read, 1 answered, 2 other messages skipped',
    });
  });

  test('ids: "7" and 7 are different requests; a prompt without an answer says so', async () => {
    expect(await answers([prompt('7'), prompt(7), result(7, { stopReason: 'cancelled' })])).toEqual({
      json: [null, { line: 3, stopReason: 'cancelled', outcome: null, code: null, error: null }],
      rows: ['  answer      none in the input', '  answer      line 3: cancelled'],
      summary: '2 prompts, 2 failed to read, 1 answered',
    });
  });

  test('received text is bounded and a result without stopReason is named', async () => {
    const long = 'x'.repeat(500);
    const { json, rows } = await answers([prompt(1), result(1, { stopReason: long }), prompt(2), result(2, {})]);
    expect((json[0] as { stopReason: string }).stopReason).toBe('x'.repeat(200));
    expect(rows[1]).toBe('  answer      line 4: a result without stopReason');
  });
});
