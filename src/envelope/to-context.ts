/**
 * Turns a checked v1 envelope into a {@link BuzzEnvelopeContext}. Reads the typed copy field by
 * field (never spreads the received object) and reports unknown keys of the received one.
 */
import type { BuzzEnvelopeContext, BuzzSignedEvent } from '../context.js';
import { BUZZ_PATH, plusZero, reportUnknownKeys } from '../shared/schema-kit.js';
import { ENVELOPE_KEYS, type EnvelopeV1 } from './schema.js';

/** Builds the context of a checked envelope; `raw` is the received object, for diagnostics only. */
export function envelopeToContext(envelope: EnvelopeV1, raw: unknown, verified: boolean): BuzzEnvelopeContext {
  const diagnostics: string[] = [];
  collectUnknownKeys(raw, diagnostics, verified);
  reportRepeatedMembers(envelope.channel.members, diagnostics);
  const events: BuzzSignedEvent[] = envelope.events.map((event) => ({
    id: event.id,
    sender: event.pubkey,
    kind: plusZero(event.kind),
    createdAt: plusZero(event.created_at),
    content: event.content,
    tags: event.tags.map((tag) => tag.slice()),
  }));
  envelope.events.forEach((event, index) => {
    if (event.tags.some((tag) => tag[0] === 'h' && tag[1] !== envelope.channel.id)) {
      diagnostics.push(
        `event ${String(index)} (${event.id}) also carries an h tag naming another channel or none; it is bound by its ["h", channel.id] tag`,
      );
    }
  });
  const job = envelope.job;
  if (job !== undefined && !envelope.events.some((event) => event.id === job.eventId)) {
    diagnostics.push('job.eventId is not among the delivered events');
  }
  const base = {
    source: 'envelope-v1',
    trust: verified ? 'verified' : 'asserted',
    channelId: envelope.channel.id,
    channelType: envelope.channel.type,
    events,
    cancelledEvents: [],
    deliveryId: envelope.deliveryId,
    reply: {
      rootEventId: envelope.reply.rootEventId,
      parentEventId: envelope.reply.parentEventId,
      replyToEventId: envelope.reply.replyToEventId,
    },
    owner: envelope.channel.ownerPubkey,
    agent: envelope.channel.agentPubkey,
    members: envelope.channel.members.map((member) => ({ pubkey: member.pubkey, role: member.role })),
    membershipRevision: envelope.channel.membershipRevision,
    diagnostics,
  } as const;
  if (job === undefined) return base;
  return {
    ...base,
    job: {
      jobId: job.jobId,
      action: job.action,
      eventId: job.eventId,
      title: job.title,
      // -0 as 0, as plusZero does; null (no due date) stays null.
      dueAt: job.dueAt === 0 ? 0 : job.dueAt,
    },
  };
}

/** A received member list naming one pubkey twice (the builder refuses that): one diagnostic each. */
function reportRepeatedMembers(members: readonly { readonly pubkey: string }[], out: string[]): void {
  const seen = new Set<string>();
  members.forEach((member, index) => {
    if (seen.has(member.pubkey)) {
      out.push(`channel.members lists the pubkey of member ${String(index)} (${member.pubkey}) more than once`);
    }
    seen.add(member.pubkey);
  });
}

/**
 * Reports unknown keys of the received envelope. Not those inside `attestation` for a verified
 * context: the attestation is outside the signed digest, so anyone could have put them there, and
 * nothing unsigned may appear in a verified context.
 */
function collectUnknownKeys(raw: unknown, out: string[], verified: boolean): void {
  const root = raw as Record<string, unknown>;
  reportUnknownKeys(root, ENVELOPE_KEYS.root, BUZZ_PATH, out);
  const channel = root.channel as Record<string, unknown>;
  reportUnknownKeys(channel, ENVELOPE_KEYS.channel, [...BUZZ_PATH, 'channel'], out);
  (channel.members as unknown[]).forEach((member, index) => {
    reportUnknownKeys(member, ENVELOPE_KEYS.member, [...BUZZ_PATH, 'channel', 'members', index], out);
  });
  reportUnknownKeys(root.reply, ENVELOPE_KEYS.reply, [...BUZZ_PATH, 'reply'], out);
  (root.events as unknown[]).forEach((event, index) => {
    reportUnknownKeys(event, ENVELOPE_KEYS.event, [...BUZZ_PATH, 'events', index], out);
  });
  // An absent job is not an object, so it reports nothing.
  reportUnknownKeys(root.job, ENVELOPE_KEYS.job, [...BUZZ_PATH, 'job'], out);
  if (!verified) reportUnknownKeys(root.attestation, ENVELOPE_KEYS.attestation, [...BUZZ_PATH, 'attestation'], out);
}
