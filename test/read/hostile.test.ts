/**
 * Hostile input: whatever JSON sits under `_meta.buzz` (arbitrary, or a valid envelope or draft
 * mutated at random paths), `readBuzzContext` never throws, never fails with `internal`, and never
 * returns `ok: true` with a malformed identifier. With a pinned key it accepts only the signed content.
 */
import { fc, test as fcTest } from '@fast-check/vitest';
import { describe, expect, vi } from 'vitest';
import { type BuzzContext, canonicalJson, readBuzzContext, type ReadBuzzOptions } from '../../src/index.js';
import { withoutKey } from '../../src/envelope/hashes.js';
import { VALID_DRAFTS } from '../draft/cases.js';
import { type JsonObject, setAt } from '../envelope/mutations.js';
import { jobEnvelope, jsonCopy, sampleEnvelope } from '../envelope/sample.js';
import { numRuns } from '../support/fuzz.js';
import { AGENT } from '../support/keys.js';

// Each property reads hundreds of generated requests: seconds on a loaded machine, past the
// default 5 s test timeout. The time is not asserted.
vi.setConfig({ testTimeout: 30_000 });

const HEX64 = /^[0-9a-f]{64}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Every identifier an ok context hands to agent code must be well-formed; returns what is not. */
function malformed(context: BuzzContext): string[] {
  const bad: string[] = [];
  const hex = (label: string, value: unknown) => {
    if (typeof value !== 'string' || !HEX64.test(value)) bad.push(label);
  };
  if (!UUID.test(context.channelId)) bad.push('channelId');
  for (const [list, events] of [
    ['events', context.events],
    ['cancelledEvents', context.cancelledEvents],
  ] as const) {
    events.forEach((event, i) => {
      if (event.id !== null || context.source !== 'prompt-text') hex(`${list}/${String(i)}/id`, event.id);
      hex(`${list}/${String(i)}/sender`, event.sender);
      const createdAt = event.createdAt;
      // Only a PR #7063 draft event has no time.
      const timeless = createdAt === null && context.source === 'meta-draft';
      if (!timeless && (createdAt === null || !Number.isSafeInteger(createdAt) || createdAt < 0)) {
        bad.push(`${list}/${String(i)}/createdAt`);
      }
    });
  }
  if (context.source === 'envelope-v1') {
    for (const [label, value] of Object.entries({
      deliveryId: context.deliveryId,
      owner: context.owner,
      agent: context.agent,
    })) {
      hex(label, value);
    }
    hex('reply/rootEventId', context.reply.rootEventId);
    hex('reply/replyToEventId', context.reply.replyToEventId);
    if (context.reply.parentEventId !== null) hex('reply/parentEventId', context.reply.parentEventId);
    context.members.forEach((member, i) => {
      hex(`members/${String(i)}`, member.pubkey);
    });
  }
  return bad;
}

/** Reads, and checks the invariants every read must keep. */
function readSafely(buzz: unknown, options: ReadBuzzOptions): ReturnType<typeof readBuzzContext> {
  let read: ReturnType<typeof readBuzzContext> | undefined;
  expect(() => {
    read = readBuzzContext({ sessionId: 's', prompt: [], _meta: { buzz } }, options);
  }).not.toThrow();
  if (read === undefined) throw new Error('unreachable');
  if (read.ok) {
    expect(malformed(read.context)).toEqual([]);
    if (read.context.trust === 'verified') expect(options.agentPubkey).toBeDefined();
  } else {
    expect(read.error.code).not.toBe('internal');
  }
  return read;
}

/** Values that look almost right: where strict parsing is most likely to slip. */
const nearValid = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc
    .tuple(fc.stringMatching(/^[0-9a-f]{62,66}$/), fc.boolean())
    .map(([hex, upper]) => (upper ? hex.toUpperCase() : hex)),
  fc.stringMatching(/^[0-9a-f]{64}$/),
  fc.uuid().map((u) => u.toUpperCase()),
  fc.uuid(),
  fc.constantFrom(
    1,
    2,
    0,
    -1,
    9,
    65_535,
    65_536,
    2 ** 53,
    1.5,
    '1',
    '',
    'dm',
    'channel',
    'member',
    'owner',
    null,
    true,
    [],
    {},
  ),
  fc
    .constantFrom('__proto__', 'constructor', 'toString')
    .map((key) => JSON.parse(`{"${key}":{"polluted":1}}`) as unknown),
);

/** Every JSON pointer inside `value` (containers and leaves), root excluded. */
function pointersOf(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [];
  const out: string[] = [];
  for (const key of Object.keys(value)) {
    const path = `${prefix}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    out.push(path, ...pointersOf((value as JsonObject)[key], path));
  }
  return out;
}

function parentOf(root: JsonObject, pointer: string): { parent: unknown; key: string } {
  const segments = pointer.split('/').slice(1);
  const key = (segments.pop() ?? '').replaceAll('~1', '/').replaceAll('~0', '~');
  let parent: unknown = root;
  for (const s of segments) parent = (parent as JsonObject)[s.replaceAll('~1', '/').replaceAll('~0', '~')];
  return { parent, key };
}

interface Edit {
  readonly op: 'replace' | 'delete' | 'add';
  readonly pick: number;
  readonly key: string;
  readonly value: unknown;
}

const edits = fc.array(
  fc.record({
    op: fc.constantFrom('replace', 'replace', 'delete', 'add'),
    pick: fc.nat(),
    key: fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'version', 'id', 'events', 'job')),
    value: nearValid,
  }),
  { minLength: 1, maxLength: 3 },
);

/** Applies random edits to a JSON copy of `base`, at paths chosen among its current pointers. */
function edited(base: unknown, list: readonly Edit[]): JsonObject {
  const root = jsonCopy(base) as JsonObject;
  for (const listed of list) {
    // A fresh copy per edit: fc.constantFrom hands out the same `[]`/`{}` instance every time, and
    // inserting one instance twice, then adding into it, would build a cycle no JSON text can.
    const edit = { ...listed, value: jsonCopy(listed.value) };
    const pointers = pointersOf(root);
    const pointer = pointers[edit.pick % Math.max(1, pointers.length)];
    if (pointer === undefined) continue;
    if (edit.op === 'replace') {
      setAt(root, pointer, edit.value);
      continue;
    }
    const { parent, key } = parentOf(root, pointer);
    if (edit.op === 'delete') {
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else Reflect.deleteProperty(parent as JsonObject, key);
      continue;
    }
    const target = (parent as JsonObject)[key];
    if (typeof target === 'object' && target !== null && !Array.isArray(target)) {
      setAt(root, `${pointer}/${edit.key.replaceAll('~', '~0').replaceAll('/', '~1')}`, edit.value);
    } else if (Array.isArray(target)) target.push(edit.value);
  }
  return root;
}

/** The part of an envelope the attestation covers. */
const signedPart = (envelope: object) => canonicalJson(withoutKey(envelope, 'attestation'), 256);

describe('arbitrary JSON under _meta.buzz', () => {
  fcTest.prop([fc.jsonValue(), fc.boolean()], { numRuns })('never throws or yields a malformed id', (buzz, pinned) => {
    readSafely(buzz, pinned ? { agentPubkey: AGENT.pubkey } : {});
  });

  fcTest.prop(
    [
      fc.record({ version: fc.oneof(fc.constant(1), nearValid) }, { requiredKeys: [] }),
      fc.dictionary(fc.string(), nearValid),
    ],
    { numRuns },
  )('objects with and without a version key never throw', (head, rest) => {
    readSafely({ ...rest, ...head }, {});
  });
});

describe('valid envelopes mutated at random paths', () => {
  // Built once inside the property, not in a beforeEach (@fast-check/vitest runs beforeEach hooks
  // before every case).
  let bases: object[] | undefined;

  fcTest.prop([fc.constantFrom(0, 1), edits, fc.boolean()], { numRuns })(
    'never throw, never yield a malformed id, and a pinned key accepts only the signed content',
    (which, list, pinned) => {
      bases ??= [sampleEnvelope(), jobEnvelope()];
      const base = bases[which] ?? bases[0];
      const envelope = edited(base, list);
      const read = readSafely(envelope, pinned ? { agentPubkey: AGENT.pubkey } : {});
      if (pinned && read.ok) {
        expect(read.context.trust).toBe('verified');
        expect(signedPart(envelope)).toBe(signedPart(base ?? {}));
      }
    },
  );
});

describe('valid drafts mutated at random paths', () => {
  const drafts = VALID_DRAFTS.map((c) => c.buzz);

  fcTest.prop([fc.nat({ max: drafts.length - 1 }), edits], { numRuns })(
    'never throw or yield a malformed id',
    (which, list) => {
      const read = readSafely(edited(drafts[which], list), {});
      if (read.ok) expect(read.context.trust).toBe('asserted');
    },
  );
});

describe('arbitrary values anywhere in params', () => {
  fcTest.prop([fc.anything({ maxDepth: 3, withNullPrototype: true, withObjectString: true })], { numRuns })(
    'as params, _meta or _meta.buzz: never throws',
    (value) => {
      for (const params of [value, { _meta: value }, { _meta: { buzz: value } }]) {
        expect(() => readBuzzContext(params, { agentPubkey: AGENT.npub })).not.toThrow();
      }
    },
  );
});
