/**
 * Sample deliveries built with the real host builder (`buildBuzzEnvelope`) from fixed keys, then
 * re-attested deterministically (see test/support/keys.ts), so tests and vectors share one base.
 *
 * The base delivery has two chat events by the owner; the last replies to the first inside a
 * thread whose root was not delivered, so every reply anchor is a distinct, non-null id. Tests
 * mutate `events[0]`, which no reply anchor derives from.
 *
 * @packageDocumentation
 */
import { type BuzzEnvelopeV1, type NostrEvent, buildBuzzEnvelope } from '../../src/host.js';
import { AGENT, OWNER, attestFixed, signEventFixed } from '../support/keys.js';

/** The sample channel. */
export const CHANNEL_ID = '6f1c2b3a-9d4e-4f5a-8b6c-7d8e9f0a1b2c';
/** A second channel: events bound to it must not pass in {@link CHANNEL_ID}'s envelope. */
export const OTHER_CHANNEL_ID = '0a9b8c7d-6e5f-4a3b-9c2d-1e0f2a3b4c5d';
/** The id of a thread root that is not part of the delivery. */
export const THREAD_ROOT_ID = '5d41402abc4b2a76b9719d911017c592ae4d9b2c1d3e5f60718293a4b5c6d7e8';
/** A job id for the job delivery. */
export const JOB_ID = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';

/** Unix seconds of the first sample event. */
export const T0 = 1_785_840_000;

/** The first chat event: a plain message in {@link CHANNEL_ID}. */
export function firstChatEvent(): NostrEvent {
  return signEventFixed(
    { kind: 9, created_at: T0, tags: [['h', CHANNEL_ID]], content: 'Can you summarize the design doc?' },
    OWNER,
  );
}

/** The two chat events of the base delivery, oldest first. */
export function sampleEvents(): [NostrEvent, NostrEvent] {
  const first = firstChatEvent();
  const second = signEventFixed(
    {
      kind: 9,
      created_at: T0 + 60,
      tags: [
        ['h', CHANNEL_ID],
        ['e', THREAD_ROOT_ID, '', 'root'],
        ['e', first.id, '', 'reply'],
      ],
      content: 'Also the risks: ünïcödé ✓ 😀 "quoted" \\ and\na second line',
    },
    OWNER,
  );
  return [first, second];
}

/** Builds an envelope with the real builder, then re-attests it deterministically. */
export function envelopeOf(input: Omit<Parameters<typeof buildBuzzEnvelope>[0], 'agentSecretKey'>): BuzzEnvelopeV1 {
  const built = buildBuzzEnvelope({ ...input, agentSecretKey: AGENT.secretKey });
  return attestFixed(built, AGENT) as unknown as BuzzEnvelopeV1;
}

/** The base delivery: two chat events by the owner, attested by the agent. */
export function sampleEnvelope(): BuzzEnvelopeV1 {
  return envelopeOf({ channelId: CHANNEL_ID, ownerPubkey: OWNER.pubkey, events: sampleEvents() });
}

/** A delivery with a job request event (kind 43001) before the chat event, and its `job` summary. */
export function jobEnvelope(): BuzzEnvelopeV1 {
  const jobEvent = signEventFixed(
    {
      kind: 43_001,
      created_at: T0 - 30,
      tags: [
        ['h', CHANNEL_ID],
        ['d', JOB_ID],
      ],
      content: 'Summarize the Q3 planning notes',
    },
    OWNER,
  );
  return envelopeOf({
    channelId: CHANNEL_ID,
    ownerPubkey: OWNER.pubkey,
    events: [jobEvent, firstChatEvent()],
    job: { jobId: JOB_ID, action: 'request', eventId: jobEvent.id, title: 'Summarize Q3 notes', dueAt: T0 + 86_400 },
  });
}

/** Wraps `_meta.buzz` in `session/prompt` params the way an ACP client sends them. */
export function promptParams(buzz: unknown): {
  sessionId: string;
  prompt: { type: 'text'; text: string }[];
  _meta: { buzz: unknown };
} {
  return { sessionId: 'sess-1', prompt: [{ type: 'text', text: 'hi' }], _meta: { buzz } };
}

/** A deep, JSON-faithful copy (own `"__proto__"` keys survive as data keys, like JSON.parse makes them). */
export function jsonCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** A sample event (kind 9, by the owner) as a context reads it. */
export function readEvent(e: NostrEvent): {
  id: string;
  sender: string;
  kind: number;
  createdAt: number;
  content: string;
  tags: readonly (readonly string[])[];
} {
  return { id: e.id, sender: OWNER.pubkey, kind: 9, createdAt: e.created_at, content: e.content, tags: e.tags };
}
