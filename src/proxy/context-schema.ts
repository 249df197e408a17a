/**
 * The contract of `_meta.buzzContext` v1 as a zod schema: `npm run schema` writes it to
 * docs/schema/buzz-context-v1.json (`buzz-meta/schema/buzz-context-v1.json`), so an agent in any
 * language validates what the proxy forwards against the same text. Objects tolerate keys they do
 * not name: v1 may grow, never change.
 */
import * as z from 'zod';
import { hex64, uuid } from '../shared/schema-kit.js';

const eventId = hex64.nullable().describe('NIP-01 event id; null only for prompt-text eras that never rendered it');
const event = {
  id: eventId,
  sender: hex64.describe("the author's pubkey"),
  kind: z.int().nullable().describe('Nostr kind; null where the source does not carry it'),
  createdAt: z.int().nullable().describe('Unix seconds; null where the source does not carry it'),
  content: z.string().nullable().describe('message text, where the source carries it'),
  tags: z.array(z.array(z.string())).nullable().describe('Nostr tags, where the source carries them'),
  senderLabel: z.string().nullable().describe('display name the host rendered (prompt text only; untrusted)'),
};
const key = (what: string) => z.string().describe(what);

let built: ReturnType<typeof build> | undefined;

/** The schema of `_meta.buzzContext` v1, built on first use (it registers its id with zod once). */
export function buzzContextSchema(): ReturnType<typeof build> {
  built ??= build();
  return built;
}

function build() {
  return z
    .object({
      version: z.literal(1),
      source: z.enum(['envelope-v1', 'meta-draft', 'prompt-text']).describe('where the context came from'),
      trust: z
        .enum(['verified', 'asserted', 'scraped'])
        .describe(
          'verified: signed and checked against the pinned agent key; asserted: sent, not proven; scraped: from forgeable prompt text',
        ),
      channel: z.object({
        id: uuid,
        type: z.enum(['dm', 'channel', 'unknown']),
        name: z.string().nullable().describe('the channel name rendered in prompt text (untrusted); null otherwise'),
        hostType: z.string().nullable().describe("a draft host's own channelType value; null otherwise"),
      }),
      deliveryId: hex64.nullable().describe("the host's dedup key of a v1 envelope; null for other sources"),
      events: z
        .array(z.object({ ...event, fresh: z.boolean().describe('this turn is the one to act on it') }))
        .describe('the delivery, oldest first; the last one is the one a reply answers'),
      cancelledEvents: z
        .array(
          z.object({
            ...event,
            carried: z.boolean().describe('no other turn finished it: act on it in this turn'),
          }),
        )
        .describe('events of a cancelled turn merged into this one (Steer/Interrupt)'),
      reply: z
        .object({ rootEventId: hex64, parentEventId: hex64.nullable(), replyToEventId: hex64 })
        .nullable()
        .describe('NIP-10 thread anchors of a reply; null where the source does not say'),
      owner: hex64.nullable().describe("the channel owner's pubkey (v1 envelope)"),
      agent: hex64.nullable().describe("the managed agent's pubkey (v1 envelope)"),
      members: z
        .array(z.object({ pubkey: hex64, role: z.enum(['owner', 'admin', 'member']) }))
        .nullable()
        .describe('channel members (v1 envelope), sorted by pubkey'),
      membershipRevision: z.string().nullable().describe('changes whenever membership does (v1 envelope)'),
      job: z
        .object({
          jobId: z.string(),
          action: z.enum(['request', 'accepted', 'result', 'cancel']),
          eventId: hex64,
          title: z.string(),
          dueAt: z.int().nullable(),
        })
        .nullable()
        .describe('the job event of a v1 envelope (jobId and title asserted by the host)'),
      keys: z.object({
        channel: key('<prefix>:channel:<uuid>: muxi acp-bridge\'s user_id under host_unit = "channel"'),
        sender: key(
          '<prefix>:pubkey:<hex> of the last event\'s sender: muxi acp-bridge\'s user_id under host_unit = "sender"',
        ).nullable(),
        senders: z.array(z.string()).describe('<prefix>:pubkey:<hex> of every distinct sender, first-seen order'),
        thread: key('<prefix>:thread:<root event id>, or null where the source does not say').nullable(),
      }),
      dedup: z.boolean().describe('a deduper decided fresh and carried (without one, all are true)'),
      dedupBypassed: z
        .string()
        .nullable()
        .describe(
          'why the deduper could not decide (its store failed): every event is fresh, some may be handled elsewhere too',
        ),
      diagnostics: z.array(z.string()).describe('non-fatal findings, one sentence each'),
    })
    .meta({
      id: 'BuzzContextV1',
      title: 'buzz-meta _meta.buzzContext v1',
      description:
        'What `buzz-meta proxy` forwards to the agent in session/prompt params._meta.buzzContext. Only the proxy writes it: one sent by the host is removed.',
    });
}
