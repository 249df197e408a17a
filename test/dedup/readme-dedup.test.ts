/**
 * docs/dedup.md's examples (one agent, a pool, the client wiring) are the type-checked files in
 * examples/ (the wiring ones run by the Redis fault tests), with the package's import paths.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** The snippet part of an example file, as a user would write it. */
function snippetOf(path: string): string {
  const text = read(path);
  const marker = '// --- snippet ---\n';
  return text
    .slice(text.indexOf(marker) + marker.length)
    .replace("from '../src/index.js'", "from 'buzz-meta'")
    .replace("from '../src/redis.js'", "from 'buzz-meta/redis'");
}

describe('docs/dedup.md, one agent and a pool', () => {
  const doc = read('docs/dedup.md');
  const blocks = doc
    .split('```ts\n')
    .slice(1)
    .map((rest) => rest.slice(0, rest.indexOf('```')));
  const redis = doc.slice(doc.indexOf('### Redis\n'));

  it('opens with the one-agent example and shows the pool one under Redis', () => {
    expect(blocks[0]).toBe(snippetOf('examples/dedup-one-agent.ts'));
    expect(redis.slice(redis.indexOf('```ts\n') + 6, redis.indexOf('```', redis.indexOf('```ts\n') + 6))).toBe(
      snippetOf('examples/dedup-pool.ts'),
    );
  });
});

describe('docs/dedup.md, Client wiring', () => {
  const doc = read('docs/dedup.md');
  const start = doc.indexOf('### Client wiring\n');
  const section = doc.slice(start, doc.indexOf('\n### ', start + 1));
  const blocks = section
    .split('```ts\n')
    .slice(1)
    .map((rest) => rest.slice(0, rest.indexOf('```')));

  it('shows node-redis standalone, node-redis cluster and ioredis cluster, as run by the tests', () => {
    expect(blocks).toEqual([
      snippetOf('examples/redis-node-standalone.ts'),
      snippetOf('examples/redis-node-cluster.ts'),
      snippetOf('examples/redis-ioredis-cluster.ts'),
    ]);
  });
});
