/**
 * One secp256k1 stack: buzz-meta asks for exactly the @noble versions (and nostr-wasm) that
 * nostr-tools pins, and pins nostr-tools itself, so npm installs one copy of each and Node loads
 * one secp256k1 implementation. A range here (`^2.0.1`) let a fresh install add the newest
 * @noble next to nostr-tools' own: 3 copies of curves, 4 of hashes, ~70 ms more to import.
 * `npm run check:install` proves it on a real packed install; this test catches drift offline.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';

interface Manifest {
  readonly version: string;
  readonly dependencies: Readonly<Record<string, string>>;
}
const manifest = (path: string): Manifest =>
  JSON.parse(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')) as Manifest;

const ours = manifest('package.json');
const nostrTools = manifest('node_modules/nostr-tools/package.json');

describe('dependencies', () => {
  test('nostr-tools is pinned to the installed version', () => {
    expect(ours.dependencies['nostr-tools']).toBe(nostrTools.version);
  });

  test.each(['@noble/curves', '@noble/hashes', 'nostr-wasm'])('%s is exactly what nostr-tools pins', (name) => {
    expect(nostrTools.dependencies[name]).toMatch(/^\d+\.\d+\.\d+$/);
    expect(ours.dependencies[name]).toBe(nostrTools.dependencies[name]);
  });

  test('nothing else ships as a runtime dependency', () => {
    expect(Object.keys(ours.dependencies).sort()).toEqual([
      '@noble/curves',
      '@noble/hashes',
      'nostr-tools',
      'nostr-wasm',
    ]);
  });
});
