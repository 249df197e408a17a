/**
 * The draft schema of record (`draftSchema`, also the JSON Schema's source), run on its own: the
 * reader's length pre-check refuses an over-long `events` first, so only a direct parse shows the
 * schema's own bound and message for `events` and `cancelledEvents`.
 */
import { describe, expect, test } from 'vitest';
import { draftParser, draftSchema } from '../../src/draft/schema.js';
import { resolveLimits } from '../../src/limits.js';

const event = { id: 'c'.repeat(64), sender: 'd'.repeat(64), kind: 9, createdAt: 1_785_840_000 };
const draft = { channelId: '7f3a2b10-1234-4abc-8def-0123456789ab', channelType: 'channel', events: [event] };

describe('draftSchema', () => {
  test.each(['events', 'cancelledEvents'])('%s: at most limits.maxEvents, with a message naming the option', (key) => {
    const limits = resolveLimits({ maxEvents: 1 });
    for (const schema of [draftSchema(limits), draftParser(limits)]) {
      expect(schema.safeParse({ ...draft, [key]: [event] }).success).toBe(true);
      const result = schema.safeParse({ ...draft, [key]: [event, event] });
      expect(result.error?.issues.map((issue) => [issue.path.join('/'), issue.message])).toEqual([
        [key, 'more events than limits.maxEvents (1)'],
      ]);
    }
  });
});
