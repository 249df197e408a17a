/**
 * The `inspect` table beyond the recorded capture: an event the text never rendered an id or kind
 * for (scraped, V1 era), a delivery without events, cancelled events, a time past the last valid
 * Date, and a note wrapped at word boundaries. Exact lines.
 */
import { describe, expect, test } from 'vitest';
import { ALICE, chat, ENGINEERING } from '../legacy/fixtures.js';
import { eventSection } from '../legacy/render.js';
import { runCli } from './run.js';

const ALICE_NPUB = 'npub1cjuew9pm0w7c2y0jn2v3r7yqrq38pe92l8uvxu63qerp7jrgr69qgwpky5';
const CHANNEL = '6f1c2b3a-9d4e-4f5a-8b6c-7d8e9f0a1b2c';

async function table(input: unknown): Promise<string[]> {
  const run = await runCli(['inspect'], JSON.stringify(input));
  expect([run.code, run.stderr]).toEqual([0, '']);
  return run.stdout.split('\n');
}

describe('inspect table', () => {
  test('an error without a path is at (params)', async () => {
    expect(await table({ jsonrpc: '2.0', id: 'a', method: 'session/prompt' })).toEqual([
      'prompt 1 (line 1, request id a)',
      '  error       invalid_params',
      '  at          (params)',
      '  why         params must be a session/prompt params object',
      '',
      '1 prompt, 1 failed to read',
      '',
    ]);
  });

  test('a scraped V1 event: no id, no kind; the request id in the heading', async () => {
    const text = eventSection('v1', [chat(ALICE, 'hi')], ENGINEERING);
    const params = { sessionId: 's', prompt: [{ type: 'text', text }] };
    expect(await table({ jsonrpc: '2.0', id: 3, method: 'session/prompt', params })).toEqual([
      'prompt 1 (line 1, request id 3)',
      '  source      prompt-text, trust scraped',
      `  channel     unknown ${ENGINEERING.id}`,
      '  event 1     kind ?, 2026-08-29T10:40:00Z',
      '    id        (not rendered)',
      `    sender    ${ALICE}`,
      `              ${ALICE_NPUB}`,
      '  keys',
      `    buzz:channel:${ENGINEERING.id}`,
      `    buzz:pubkey:${ALICE}`,
      '',
      '1 prompt, 0 failed to read',
      '',
    ]);
  });

  test('no events, a cancelled one out of Date range, and a wrapped note', async () => {
    const buzz = {
      channelId: CHANNEL,
      channelType: 'dm',
      events: [],
      cancelledEvents: [{ id: 'c'.repeat(64), sender: ALICE, kind: 9, createdAt: Number.MAX_SAFE_INTEGER }],
      [`unknown_${'k'.repeat(90)}`]: 1,
    };
    expect(await table({ sessionId: 's', prompt: [], _meta: { buzz } })).toEqual([
      'prompt 1 (line 1)',
      '  source      meta-draft, trust asserted',
      `  channel     dm ${CHANNEL}`,
      '  events      none',
      '  cancelled 1 kind 9, out of range',
      `    id        ${'c'.repeat(64)}`,
      `    sender    ${ALICE}`,
      `              ${ALICE_NPUB}`,
      '  keys',
      `    buzz:channel:${CHANNEL}`,
      '  note        unknown key',
      `              /_meta/buzz/unknown_${'k'.repeat(56)}…`,
      '              ignored',
      '',
      '1 prompt, 0 failed to read',
      '',
    ]);
  });
});
