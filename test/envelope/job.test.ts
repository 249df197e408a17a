/**
 * Job deliveries: a job event (kind 43001 request) plus its `job` summary verifies, the summary
 * reaches the context, and `job.eventId` is part of deliveryId (recomputed independently here
 * with the RFC 8785 `canonicalize` package).
 */
import { createRequire } from 'node:module';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { beforeEach, describe, expect, test } from 'vitest';
import { deliveryIdOf, readBuzzContext, verifyBuzzEnvelope } from '../../src/index.js';
import { AGENT, attestFixed } from '../support/keys.js';
import { type JsonObject, recomputeUnkeyed, setAt } from './mutations.js';
import { JOB_ID, T0, jobEnvelope, jsonCopy, promptParams } from './sample.js';

// canonicalize is CommonJS whose typings claim an ES default export; require() gives the function itself.
const canonicalize = createRequire(import.meta.url)('canonicalize') as (value: unknown) => string;

let envelope: ReturnType<typeof jobEnvelope>;
let jobEvent: ReturnType<typeof jobEnvelope>['events'][number];
let chatEvent: typeof jobEvent;
beforeEach(() => {
  envelope = jobEnvelope();
  const [job, chat] = envelope.events;
  if (job === undefined || chat === undefined) throw new Error('job sample has two events');
  jobEvent = job;
  chatEvent = chat;
});

function codes(candidate: unknown): string[] {
  return verifyBuzzEnvelope(candidate, { agentPubkey: AGENT.pubkey }).failures.map((f) => f.code);
}

test('verifies and carries the job summary into a verified context', () => {
  const read = readBuzzContext(promptParams(envelope), { agentPubkey: AGENT.npub, minTrust: 'verified' });
  expect(read.ok).toBe(true);
  if (!read.ok) return;
  expect(read.context.job).toEqual({
    jobId: JOB_ID,
    action: 'request',
    eventId: jobEvent.id,
    title: 'Summarize Q3 notes',
    dueAt: T0 + 86_400,
  });
  expect(read.context.events.map((event) => [event.kind, event.id])).toEqual([
    [43_001, jobEvent.id],
    [9, chatEvent.id],
  ]);
  expect(read.context.reply).toEqual({ rootEventId: chatEvent.id, parentEventId: null, replyToEventId: chatEvent.id });
  expect(read.context.diagnostics).toEqual([]);
});

describe('deliveryId', () => {
  const subject = () => ({
    version: 1,
    channel: envelope.channel,
    reply: envelope.reply,
    eventIds: [jobEvent.id, chatEvent.id],
  });
  const hash = (value: unknown) => bytesToHex(sha256(utf8ToBytes(canonicalize(value))));

  test('is sha256 of canonical { version, channel, reply, eventIds, jobEventId }', () => {
    expect(envelope.deliveryId).toBe(hash({ ...subject(), jobEventId: jobEvent.id }));
    expect(deliveryIdOf(envelope)).toBe(envelope.deliveryId);
  });

  test('differs from the same delivery without the job', () => {
    expect(hash(subject())).not.toBe(envelope.deliveryId);
    const withoutJob = {
      version: envelope.version,
      channel: envelope.channel,
      reply: envelope.reply,
      events: envelope.events,
    };
    expect(deliveryIdOf(withoutJob)).toBe(hash(subject()));
  });
});

const TITLE_CHARS =
  '/_meta/buzz/job/title: a job title may not contain control, format or line/paragraph separator characters';
const TITLE_BYTES = '/_meta/buzz/job/title: a job title is at most 512 UTF-8 bytes';

describe('tampering with the job', () => {
  const edits: readonly { name: string; edit: (e: JsonObject) => void; before: string[]; after: string[] }[] = [
    {
      name: 'job.eventId pointed at the chat event',
      edit: (e) => {
        setAt(e, '/job/eventId', chatEvent.id);
      },
      before: ['payload_hash_mismatch', 'delivery_id_mismatch'],
      after: ['attestation_signature_invalid'],
    },
    {
      name: 'job removed',
      edit: (e) => delete e.job,
      before: ['payload_hash_mismatch', 'delivery_id_mismatch'],
      after: ['attestation_signature_invalid'],
    },
    {
      name: 'job.action changed to cancel',
      edit: (e) => {
        setAt(e, '/job/action', 'cancel');
      },
      before: ['payload_hash_mismatch'],
      after: ['attestation_signature_invalid'],
    },
    {
      name: 'job.title changed',
      edit: (e) => {
        setAt(e, '/job/title', 'Wire the money');
      },
      before: ['payload_hash_mismatch'],
      after: ['attestation_signature_invalid'],
    },
  ];

  test.each(edits)(
    '$name is rejected before ($before) and after recomputing hashes ($after)',
    ({ edit, before, after }) => {
      const tampered = jsonCopy(envelope) as unknown as JsonObject;
      edit(tampered);
      expect(codes(tampered)).toEqual(before);
      recomputeUnkeyed(tampered);
      expect(codes(tampered)).toEqual(after);
    },
  );
});

describe('job summary shape', () => {
  function signedJob(field: string, value: unknown): JsonObject {
    const edited = jsonCopy(envelope) as unknown as JsonObject;
    setAt(edited, `/job/${field}`, value);
    recomputeUnkeyed(edited);
    return attestFixed(edited, AGENT);
  }

  test.each([
    {
      name: 'a right-to-left override (Cf) in the title',
      field: 'title',
      value: 'Pay \u202egro.live',
      code: 'invalid_envelope',
      message: TITLE_CHARS,
    },
    {
      name: 'a newline (Cc) in the title',
      field: 'title',
      value: 'a\nb',
      code: 'invalid_envelope',
      message: TITLE_CHARS,
    },
    {
      name: 'a line separator (Zl) in the title',
      field: 'title',
      value: 'a\u2028b',
      code: 'invalid_envelope',
      message: TITLE_CHARS,
    },
    { name: 'a 513-character title', field: 'title', value: 't'.repeat(513), code: 'limit_exceeded' },
    {
      name: '171 euro signs (513 UTF-8 bytes)',
      field: 'title',
      value: '€'.repeat(171),
      code: 'limit_exceeded',
      message: TITLE_BYTES,
    },
    { name: 'an unknown action', field: 'action', value: 'delete', code: 'invalid_envelope' },
    { name: 'a negative dueAt', field: 'dueAt', value: -1, code: 'invalid_envelope' },
  ] as { name: string; field: string; value: unknown; code: string; message?: string }[])(
    '$name is $code at /job/$field, even when the host signed it',
    ({ field, value, code, message }) => {
      const read = readBuzzContext(promptParams(signedJob(field, value)), { agentPubkey: AGENT.pubkey });
      expect(read.ok ? 'ok' : [read.error.code, read.error.path]).toEqual([code, `/_meta/buzz/job/${field}`]);
      // Our own messages are pinned; zod's default wording (other rows) may change between zod minors.
      if (message !== undefined) expect(read.ok || read.error.message).toBe(message);
    },
  );

  test('512 bytes of title and a null dueAt verify', () => {
    for (const [field, value] of [
      ['title', '€'.repeat(170) + 'ab'],
      ['dueAt', null],
    ] as const) {
      const read = readBuzzContext(promptParams(signedJob(field, value)), { agentPubkey: AGENT.pubkey });
      expect(read.ok && read.context.trust).toBe('verified');
    }
  });

  test('a job whose event is not delivered verifies with a diagnostic', () => {
    const read = readBuzzContext(promptParams(signedJob('eventId', JOB_ID)), { agentPubkey: AGENT.pubkey });
    expect(read.ok && read.context.diagnostics).toEqual(['job.eventId is not among the delivered events']);
  });
});
