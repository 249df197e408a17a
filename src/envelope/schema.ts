/**
 * The v1 envelope's shape (buzz-acp `buzz_envelope.rs`), as a zod schema built for given limits.
 * Shape only: whether the hashes and signatures are right is `verify.ts`'s job. Unknown keys pass
 * the schema (the host may be newer) and stay in the object that gets canonicalized and hashed.
 */
import * as z from 'zod';
import { DEFAULT_LIMITS, type BuzzLimits } from '../limits.js';
import {
  SIZE_LIMIT,
  eventText,
  hex128,
  hex64,
  limitedSchemas,
  nostrKind,
  unixSeconds,
  uuid,
} from '../shared/schema-kit.js';

/**
 * The domain-separation prefix of the attestation digest (a 0x00 byte follows it).
 *
 * @example
 * ```ts
 * import { ENVELOPE_DOMAIN } from 'buzz-meta'
 *
 * // A host in another language hashes this prefix, then a 0x00 byte, then the payload (docs/wire-formats.md).
 * const prefix = new TextEncoder().encode(`${ENVELOPE_DOMAIN}\0`)
 * ```
 * @group Envelope
 */
export const ENVELOPE_DOMAIN = 'buzz-acp-envelope-v1';
/**
 * The only attestation algorithm v1 defines.
 *
 * @example
 * ```ts
 * import { ATTESTATION_ALGORITHM } from 'buzz-meta'
 *
 * const algorithm: string = envelope.attestation.algorithm
 * const known = algorithm === ATTESTATION_ALGORITHM // 'bip340-sha256'
 * ```
 * @group Envelope
 */
export const ATTESTATION_ALGORITHM = 'bip340-sha256';
/**
 * Job titles are bounded in UTF-8 bytes because the host renders them into prompts.
 *
 * @example
 * ```ts
 * import { JOB_TITLE_MAX_BYTES } from 'buzz-meta'
 *
 * const title = 'Summarize the thread'
 * const fits = new TextEncoder().encode(title).length <= JOB_TITLE_MAX_BYTES // a host checks before it sends
 * ```
 * @group Envelope
 */
export const JOB_TITLE_MAX_BYTES = 512;

/** Unicode Cc, Cf, Zl and Zp: control, format and separator characters the host forbids in titles. */
const FORBIDDEN_TITLE_CHARS = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** Builds the envelope schema for the given limits. */
function buildEnvelopeSchema(limits: BuzzLimits) {
  const event = z.object({
    id: hex64,
    pubkey: hex64,
    created_at: unixSeconds,
    kind: nostrKind,
    tags: z
      .array(
        z.array(eventText(limits.maxTagValueLength, 'maxTagValueLength', 'a tag value')).max(limits.maxTagValues, {
          error: `a tag has more values than limits.maxTagValues (${String(limits.maxTagValues)})`,
        }),
      )
      .max(limits.maxTags, { error: `an event has more tags than limits.maxTags (${String(limits.maxTags)})` }),
    content: eventText(limits.maxContentLength, 'maxContentLength', 'the content'),
    sig: hex128,
  });
  return z
    .object({
      version: z.literal(1),
      deliveryId: hex64,
      channel: z.object({
        id: uuid,
        type: z.enum(['dm', 'channel']),
        ownerPubkey: hex64,
        agentPubkey: hex64,
        members: z
          .array(z.object({ pubkey: hex64, role: z.enum(['owner', 'admin', 'member']) }))
          .max(limits.maxMembers, {
            error: `the channel lists more members than limits.maxMembers (${String(limits.maxMembers)})`,
          }),
        membershipRevision: z.string().regex(/^v1:[0-9a-f]{64}$/),
      }),
      reply: z.object({
        rootEventId: hex64,
        parentEventId: hex64.nullable(),
        replyToEventId: hex64,
      }),
      events: z
        .array(event)
        .min(1)
        .max(limits.maxEvents, { error: `more events than limits.maxEvents (${String(limits.maxEvents)})` }),
      job: z
        .object({
          jobId: hex64,
          action: z.enum(['request', 'accepted', 'result', 'cancel']),
          eventId: hex64,
          title: z
            .string()
            .max(JOB_TITLE_MAX_BYTES)
            .refine((title) => utf8Length(title) <= JOB_TITLE_MAX_BYTES, {
              error: `a job title is at most ${String(JOB_TITLE_MAX_BYTES)} UTF-8 bytes`,
              params: { [SIZE_LIMIT]: true },
            })
            .refine((title) => !FORBIDDEN_TITLE_CHARS.test(title), {
              error: 'a job title may not contain control, format or line/paragraph separator characters',
            }),
          dueAt: unixSeconds.nullable(),
        })
        .optional(),
      attestation: z.object({
        algorithm: z.literal(ATTESTATION_ALGORITHM),
        signerPubkey: hex64,
        payloadHash: hex64,
        signature: hex128,
      }),
    })
    .meta({
      id: 'BuzzEnvelopeV1',
      title: 'Buzz _meta.buzz v1 envelope',
      description:
        'Signed transport metadata buzz-acp attaches to ACP session/prompt as params._meta.buzz. ' +
        'Unknown keys may appear (they are covered by the attestation) and are ignored by readers.',
    });
}

/** The envelope as the schema types it (unknown keys dropped; use only for typed reads). */
export type EnvelopeV1 = z.infer<ReturnType<typeof buildEnvelopeSchema>>;

/** The top-level keys v1 defines, for unknown-key diagnostics. */
export const ENVELOPE_KEYS = {
  root: new Set(['version', 'deliveryId', 'channel', 'reply', 'events', 'job', 'attestation']),
  channel: new Set(['id', 'type', 'ownerPubkey', 'agentPubkey', 'members', 'membershipRevision']),
  member: new Set(['pubkey', 'role']),
  reply: new Set(['rootEventId', 'parentEventId', 'replyToEventId']),
  event: new Set(['id', 'pubkey', 'created_at', 'kind', 'tags', 'content', 'sig']),
  job: new Set(['jobId', 'action', 'eventId', 'title', 'dueAt']),
  attestation: new Set(['algorithm', 'signerPubkey', 'payloadHash', 'signature']),
} as const;

/** Every key name v1 defines: the names an error pointer into an envelope may show as they are. */
export const ENVELOPE_KEY_NAMES: ReadonlySet<string> = new Set(
  Object.values(ENVELOPE_KEYS).flatMap((keys) => [...keys]),
);

const schemas = limitedSchemas(buildEnvelopeSchema);

/** The envelope schema for these limits (the schema of record), built once per distinct set of limits. */
export function envelopeSchema(limits: BuzzLimits = DEFAULT_LIMITS): ReturnType<typeof buildEnvelopeSchema> {
  return schemas.schema(limits);
}

/** The envelope schema for reading: compiled with `z.compile` where available, same verdicts and issues. */
export function envelopeParser(limits: BuzzLimits = DEFAULT_LIMITS): ReturnType<typeof buildEnvelopeSchema> {
  return schemas.parser(limits);
}
