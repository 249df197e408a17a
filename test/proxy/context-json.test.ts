/**
 * `_meta.buzzContext` v1 (src/proxy/context-json.ts): the exact JSON of a verified envelope, and
 * for every source (envelope, the draft dialects, scraped text) a value that the zod schema of
 * record and the published JSON Schema file both accept.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { BuzzTurn } from '../../src/acp/turn-runner.js';
import { type BuzzContext, channelKey, readBuzzContext, senderKey, threadKey } from '../../src/index.js';
import { buzzContextJson } from '../../src/proxy/context-json.js';
import { buzzContextSchema } from '../../src/proxy/context-schema.js';
import { AGENT, OWNER, STRANGER } from '../support/keys.js';
import { CHANNEL_ID, jobEnvelope, jsonCopy, readEvent, sampleEnvelope, sampleEvents } from '../envelope/sample.js';
import { validate } from '../schema/json-schema-lite.js';
import { PR4751_DRAFTS, PR7063_DRAFTS, VALID_DRAFTS } from '../draft/cases.js';
import { ENGINEERING, chat } from '../legacy/fixtures.js';
import { eventSection } from '../legacy/render.js';

const schemaFile = JSON.parse(
  readFileSync(new URL('../../docs/schema/buzz-context-v1.json', import.meta.url), 'utf8'),
) as Record<string, unknown>;

function read(params: unknown, agentPubkey?: string): BuzzContext {
  const result = readBuzzContext(params, agentPubkey === undefined ? {} : { agentPubkey });
  if (!result.ok) throw new Error(`fixture does not read: ${result.error.message}`);
  return result.context;
}

/** The turn the runner builds for `context` without a deduper (every event fresh, every cancelled one carried). */
function turnOf(context: BuzzContext, prefix?: string): BuzzTurn {
  const options = prefix === undefined ? undefined : { prefix };
  return {
    context,
    keys: {
      channel: channelKey(context, options),
      sender: context.events.length === 0 ? null : senderKey(context, options),
      thread: threadKey(context, options),
    },
    fresh: context.events,
    seen: [],
    carried: context.cancelledEvents,
    dedupBypassed: null,
  };
}

function expectValid(json: unknown): void {
  expect(buzzContextSchema().safeParse(json).success).toBe(true);
  expect(validate(schemaFile, json)).toEqual([]);
}

describe('buzzContextJson', () => {
  test('a verified envelope: every field, keys with the given prefix', () => {
    const [first, second] = sampleEvents();
    const context = read({ _meta: { buzz: jsonCopy(sampleEnvelope()) } }, AGENT.npub);
    const json = buzzContextJson(turnOf(context, 'muxi'), { prefix: 'muxi', dedup: false, diagnostics: ['note'] });
    const event = (e: typeof first) => ({ ...readEvent(e), senderLabel: null, fresh: true });
    expect(json).toEqual({
      version: 1,
      source: 'envelope-v1',
      trust: 'verified',
      channel: { id: CHANNEL_ID, type: 'dm', name: null, hostType: null },
      deliveryId: context.source === 'envelope-v1' ? context.deliveryId : 'missing',
      events: [event(first), event(second)],
      cancelledEvents: [],
      reply: {
        rootEventId: '5d41402abc4b2a76b9719d911017c592ae4d9b2c1d3e5f60718293a4b5c6d7e8',
        parentEventId: first.id,
        replyToEventId: second.id,
      },
      owner: OWNER.pubkey,
      agent: AGENT.pubkey,
      members: [
        { pubkey: OWNER.pubkey, role: 'member' },
        { pubkey: AGENT.pubkey, role: 'member' },
      ].sort((a, b) => a.pubkey.localeCompare(b.pubkey)),
      membershipRevision: context.source === 'envelope-v1' ? context.membershipRevision : 'missing',
      job: null,
      keys: {
        channel: `muxi:channel:${CHANNEL_ID}`,
        sender: `muxi:pubkey:${OWNER.pubkey}`,
        senders: [`muxi:pubkey:${OWNER.pubkey}`],
        thread: 'muxi:thread:5d41402abc4b2a76b9719d911017c592ae4d9b2c1d3e5f60718293a4b5c6d7e8',
      },
      dedup: false,
      dedupBypassed: null,
      diagnostics: ['note'],
    });
    expectValid(json);
    // Plain JSON: what JSON.stringify writes reads back the same.
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });

  test('fresh and carried follow the turn; a job envelope carries its job', () => {
    const context = read({ _meta: { buzz: jsonCopy(jobEnvelope()) } }, AGENT.npub);
    const turn = { ...turnOf(context), fresh: context.events.slice(1), seen: context.events.slice(0, 1) };
    const json = buzzContextJson(turn, { dedup: true, diagnostics: [] });
    expect(json.events.map((event) => event.fresh)).toEqual(context.events.map((_, i) => i > 0));
    expect(json.job).toEqual(context.source === 'envelope-v1' ? context.job : 'missing');
    expect(json.dedup).toBe(true);
    expectValid(json);
  });

  test('several senders: the sender key is the last one, and a diagnostic says so', () => {
    const draft = {
      channelId: CHANNEL_ID,
      channelType: 'channel',
      events: [
        { id: 'a'.repeat(64), sender: STRANGER.pubkey, kind: 9, createdAt: 1 },
        { id: 'b'.repeat(64), sender: OWNER.pubkey, kind: 9, createdAt: 2 },
      ],
      cancelledEvents: [{ id: 'c'.repeat(64), sender: OWNER.pubkey, kind: 9, createdAt: 0 }],
    };
    const context = read({ _meta: { buzz: draft } });
    const json = buzzContextJson({ ...turnOf(context), carried: [] }, { dedup: true, diagnostics: [] });
    expect(json.keys.sender).toBe(`buzz:pubkey:${OWNER.pubkey}`);
    expect(json.keys.senders).toEqual([`buzz:pubkey:${STRANGER.pubkey}`, `buzz:pubkey:${OWNER.pubkey}`]);
    expect(json.diagnostics).toEqual(["2 distinct senders in this delivery; attributed to the last event's sender"]);
    expect(json.cancelledEvents.map((event) => event.carried)).toEqual([false]);
    expect(json.trust).toBe('asserted');
    expect(json.channel.hostType).toBe('channel');
    expectValid(json);
  });

  test('every draft dialect and scraped prompt text give a valid v1 value', () => {
    for (const draft of [...VALID_DRAFTS, ...PR4751_DRAFTS, ...PR7063_DRAFTS]) {
      const result = readBuzzContext({ _meta: { buzz: jsonCopy(draft.buzz) } });
      expect(result.ok, draft.name).toBe(true);
      if (result.ok) expectValid(buzzContextJson(turnOf(result.context), { dedup: false, diagnostics: [] }));
    }
    const text = eventSection('v4', [chat(OWNER.pubkey, 'hello'), chat(STRANGER.pubkey, 'hi')], ENGINEERING);
    const scraped = read({ prompt: [{ type: 'text', text }] });
    const json = buzzContextJson(turnOf(scraped), { dedup: false, diagnostics: [] });
    expect(json.source).toBe('prompt-text');
    expect(json.trust).toBe('scraped');
    expect(json.channel.name).toBe('engineering');
    expect(json.owner).toBeNull();
    expectValid(json);
  });
});
