/**
 * Inputs of the benchmarks: realistic `session/prompt` requests, built once before timing.
 *
 * - Draft requests: a full JSON-RPC `session/prompt` text whose `params.prompt` carries the V4
 *   text blocks buzz-acp renders (`[Context]`, then `[Buzz events — 4 events]` with one
 *   `Event ID / Channel / Kind / From / Time / Content / Tags / Parsed` block per event, see
 *   spec/prompt-text-formats.md §2.3, §3, §8) and whose `params._meta.buzz` is the 4-event draft
 *   describing the same events.
 * - Envelopes: v1 envelopes built with `buzz-meta/host`, each with its own agent and owner keys,
 *   so that no two iterations verify the same signature.
 *
 * Keys are derived from seeds (sha256 of a label), so sizes are stable from run to run; the
 * signatures themselves use fresh aux randomness.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { npubEncode } from 'nostr-tools/nip19';
import { getPublicKey } from 'nostr-tools/pure';
import { buildBuzzEnvelope, type BuzzEnvelopeV1, type NostrEvent, signEvent } from '../src/host.js';
import { attestationDigest } from '../src/envelope/hashes.js';

/** A deterministic 32-byte secret key (sha256 of a label: valid with overwhelming probability). */
export function seededKey(label: string): Uint8Array {
  return sha256(utf8ToBytes(`buzz-meta bench key: ${label}`));
}

/** A deterministic lowercase v4-shaped UUID. */
function seededUuid(label: string): string {
  const hex = bytesToHex(sha256(utf8ToBytes(`buzz-meta bench uuid: ${label}`)));
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** buzz-acp's `Time:` rendering: chrono `to_rfc3339()` of whole seconds, always `+00:00`. */
function rfc3339(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace('.000Z', '+00:00');
}

interface Person {
  readonly secretKey: Uint8Array;
  readonly hex: string;
  readonly npub: string;
  readonly label: string | undefined;
}

function person(seed: string, label: string | undefined): Person {
  const secretKey = seededKey(seed);
  const hex = getPublicKey(secretKey);
  return { secretKey, hex, npub: npubEncode(hex), label };
}

/** The V3+ `From:` line value. */
function fromLine(p: Person): string {
  return p.label === undefined ? `${p.npub} (hex: ${p.hex})` : `${p.label} (npub: ${p.npub}, hex: ${p.hex})`;
}

/** The V3+ `Parsed:` parts of an event (NIP-10 marked `e` tags, `p` mentions), or `undefined`. */
function parsedLine(event: NostrEvent, labels: ReadonlyMap<string, string>): string | undefined {
  let root: string | undefined;
  let reply: string | undefined;
  const mentions: string[] = [];
  for (const tag of event.tags) {
    if (tag[0] === 'e' && tag.length >= 4 && tag[1] !== undefined) {
      if (tag[3] === 'root') root = tag[1];
      if (tag[3] === 'reply') reply = tag[1];
    }
    if (tag[0] === 'p' && tag[1] !== undefined) {
      const label = labels.get(tag[1]);
      mentions.push(label === undefined ? tag[1] : `${label} (${tag[1]})`);
    }
  }
  if (root !== undefined && reply === undefined) reply = root;
  if (reply !== undefined && root === undefined) root = reply;
  const parts: string[] = [];
  if (reply !== undefined) parts.push(`parent=${reply}`);
  if (root !== undefined) parts.push(`root=${root}`);
  if (mentions.length > 0) parts.push(`mentions=[${mentions.join(', ')}]`);
  return parts.length === 0 ? undefined : `Parsed: ${parts.join(', ')}`;
}

/** One V4 event block (`format_event_block`). */
function eventBlock(
  event: NostrEvent,
  author: Person,
  channelDisplay: string,
  labels: ReadonlyMap<string, string>,
): string {
  const lines = [
    `Event ID: ${event.id}`,
    `Channel: ${channelDisplay}`,
    `Kind: ${String(event.kind)}`,
    `From: ${fromLine(author)}`,
    `Time: ${rfc3339(event.created_at)}`,
    `Content: ${event.content}`,
    `Tags: ${JSON.stringify(event.tags)}`,
  ];
  const parsed = parsedLine(event, labels);
  if (parsed !== undefined) lines.push(parsed);
  return lines.join('\n');
}

/** What one draft benchmark input is made of. */
export interface DraftRequest {
  /** The full JSON-RPC request text, as it arrives on the agent's stdin (one ndjson line). */
  readonly text: string;
  /** UTF-8 size of `text`. */
  readonly bytes: number;
  /** UTF-8 size of the `_meta.buzz` draft alone. */
  readonly draftBytes: number;
  /** UTF-8 size of the prompt text blocks alone. */
  readonly promptTextBytes: number;
}

const CHAT = [
  '@Scout can you summarize yesterday\u2019s deploy? The api-v2 rollout paused at 40 % around 17:10 UTC.',
  'Also: the canary dashboards showed p99 latency at 850 ms for /v2/search, up from ~300 ms.\nDid we roll back or just pause?',
  'I think it was paused by the SLO guard, not by a person. Logs are in #deploys.',
  '@Scout please check the guard\u2019s decision log and tell us whether it is safe to resume the rollout today.',
];

/**
 * The draft dialect of a benchmark request: the proposal's (`channelType: 'channel'`, an empty
 * `cancelledEvents`), block/buzz PR #4751's (`channelType: 'stream'`, no `cancelledEvents` outside a
 * merge) or PR #7063's (events `{id, authorPubkey}` only).
 */
export type DraftDialect = 'proposal' | 'pr4751' | 'pr7063';

/** The `_meta.buzz` of one draft request in `dialect`. */
function draftMeta(dialect: DraftDialect, channelId: string, events: readonly NostrEvent[]): unknown {
  if (dialect === 'pr7063') {
    return { channelId, events: events.map((event) => ({ id: event.id, authorPubkey: event.pubkey })) };
  }
  const wire = events.map((event) => ({
    id: event.id,
    sender: event.pubkey,
    kind: event.kind,
    createdAt: event.created_at,
  }));
  return dialect === 'pr4751'
    ? { channelId, channelType: 'stream', events: wire }
    : { channelId, channelType: 'channel', events: wire, cancelledEvents: [] };
}

/**
 * Builds `count` distinct 4-event draft requests (distinct channels, senders, ids and JSON-RPC
 * ids), each a V4 `session/prompt` with the structured draft under `params._meta.buzz`.
 */
export function draftRequests(count: number, dialect: DraftDialect = 'proposal'): DraftRequest[] {
  const agent = person('agent Scout', 'Scout');
  const out: DraftRequest[] = [];
  for (let n = 0; n < count; n++) {
    const alice = person(`alice ${String(n)}`, 'Alice Chen');
    const bob = person(`bob ${String(n)}`, undefined);
    const channelId = seededUuid(`engineering ${String(n)}`);
    const channelDisplay = `engineering (#${channelId})`;
    const labels = new Map([
      [agent.hex, 'Scout'],
      [alice.hex, 'Alice Chen'],
    ]);
    const authors = [alice, bob, bob, alice];
    const base = 1_785_840_000 + n * 600;
    const events: NostrEvent[] = [];
    authors.forEach((author, i) => {
      const tags: string[][] = [['h', channelId]];
      const root = events[0];
      if (root !== undefined) tags.push(['e', root.id, '', 'root']);
      const parent = events[i - 1];
      if (parent !== undefined && i > 1) tags.push(['e', parent.id, '', 'reply']);
      if ((CHAT[i] ?? '').includes('@Scout')) tags.push(['p', agent.hex]);
      events.push(signEvent({ kind: 9, created_at: base + i * 65, tags, content: CHAT[i] ?? '' }, author.secretKey));
    });
    const [first, , third] = events;
    const last = events.at(-1);
    if (first === undefined || third === undefined || last === undefined) throw new Error('four events expected');
    const rootId = first.id;
    const context = [
      '[Context]',
      'Scope: thread',
      `Channel: ${channelDisplay}`,
      `Thread root: ${rootId}`,
      `Parent: ${third.id}`,
      'Use `buzz messages thread --channel <UUID> --event <ID>` to fetch thread context.',
      `IMPORTANT: For ordinary replies in this turn, use \`--reply-to ${rootId}\` on \`buzz messages send\` so the conversation stays threaded. If the human explicitly asks for a channel-root, top-level, or broadcast post, send that message without \`--reply-to\`. If the requested destination is ambiguous, ask before sending.`,
    ].join('\n');
    let section = `[Buzz events \u2014 ${String(events.length)} events]`;
    events.forEach((event, i) => {
      const author = authors[i] ?? alice;
      section += `\n\n--- Event ${String(i + 1)} (@mention) ---\n${eventBlock(event, author, channelDisplay, labels)}`;
    });
    const buzz = draftMeta(dialect, channelId, events);
    const request = {
      jsonrpc: '2.0',
      id: 40 + n,
      method: 'session/prompt',
      params: {
        sessionId: `sess_${bytesToHex(seededKey(`session ${String(n)}`)).slice(0, 26)}`,
        prompt: [
          { type: 'text', text: context },
          { type: 'text', text: section },
        ],
        _meta: {
          traceparent: `00-${bytesToHex(seededKey(`trace ${String(n)}`)).slice(0, 32)}-${last.id.slice(0, 16)}-01`,
          buzz,
        },
      },
    };
    const text = JSON.stringify(request);
    out.push({
      text,
      bytes: utf8Bytes(text),
      draftBytes: utf8Bytes(JSON.stringify(buzz)),
      promptTextBytes: utf8Bytes(context) + utf8Bytes(section),
    });
  }
  return out;
}

/** One envelope benchmark input: the request text, and the bytes a bare verifier needs. */
export interface EnvelopeCase {
  /** The `session/prompt` params JSON text carrying the envelope under `_meta.buzz`. */
  readonly paramsText: string;
  /** The agent's pinned pubkey (hex). */
  readonly agentPubkey: string;
  /** The envelope itself (a host-side object, for canonicalJson timing). */
  readonly envelope: BuzzEnvelopeV1;
  /** Every Schnorr verification the read performs: attestation first, then each event. */
  readonly verifications: readonly { sig: Uint8Array; msg: Uint8Array; pub: Uint8Array }[];
}

/**
 * Builds `count` distinct v1 envelopes with `eventsPerEnvelope` chat events each; every envelope
 * has its own agent and owner keys, so signatures and pubkeys never repeat across the pool.
 */
export function envelopeCases(count: number, eventsPerEnvelope: number, tag: string): EnvelopeCase[] {
  const out: EnvelopeCase[] = [];
  for (let n = 0; n < count; n++) {
    const agentSecretKey = seededKey(`${tag} agent ${String(n)}`);
    const owner = person(`${tag} owner ${String(n)}`, 'Alice Chen');
    const agentPubkey = getPublicKey(agentSecretKey);
    const channelId = seededUuid(`${tag} dm ${String(n)}`);
    const events: NostrEvent[] = [];
    for (let i = 0; i < eventsPerEnvelope; i++) {
      const tags: string[][] = [['h', channelId]];
      const root = events[0];
      if (root !== undefined) tags.push(['e', root.id, '', 'root']);
      tags.push(['p', agentPubkey]);
      events.push(
        signEvent(
          { kind: 9, created_at: 1_785_840_000 + n * 600 + i * 65, tags, content: CHAT[i % CHAT.length] ?? '' },
          owner.secretKey,
        ),
      );
    }
    const envelope = buildBuzzEnvelope({ agentSecretKey, channelId, ownerPubkey: owner.hex, events });
    const params = {
      sessionId: `sess_${String(n)}`,
      prompt: [{ type: 'text', text: `[Buzz event: @mention]\n${events.map((e) => e.content).join('\n')}` }],
      _meta: { buzz: envelope },
    };
    const verifications = [
      {
        sig: hexToBytes(envelope.attestation.signature),
        msg: attestationDigest(envelope),
        pub: hexToBytes(agentPubkey),
      },
      ...events.map((event) => ({
        sig: hexToBytes(event.sig),
        msg: hexToBytes(event.id),
        pub: hexToBytes(event.pubkey),
      })),
    ];
    out.push({ paramsText: JSON.stringify(params), agentPubkey, envelope, verifications });
  }
  return out;
}

function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
