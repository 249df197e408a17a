/**
 * The libsecp256k1 loader's own guards: inputs of the wrong length never reach the fixed heap
 * buffers (a stray byte would overwrite the next buffer, or a short input leave the previous call's
 * bytes behind), the load-time self-test refuses a binary whose verify accepts everything or
 * nothing, the runtime imports it hands the binary abort, refuse to grow the heap, and copy
 * within the instance's heap, and verify writes into the memory's current buffer, not a detached one.
 */
import { schnorr } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { describe, expect, test } from 'vitest';
import { loadLibsecp256k1 } from '../../src/envelope/libsecp256k1.js';
import { tapWasm } from '../support/wasm-tap.js';

function signed(): { signature: Uint8Array; message: Uint8Array; pubkey: Uint8Array } {
  const secret = sha256(utf8ToBytes('buzz-meta/test-key/libsecp256k1'));
  const message = sha256(utf8ToBytes('message'));
  return {
    signature: schnorr.sign(message, secret, new Uint8Array(32)),
    message,
    pubkey: schnorr.getPublicKey(secret),
  };
}

const withByte = (bytes: Uint8Array): Uint8Array => Uint8Array.of(...bytes, 0);

describe('raw verify refuses inputs of the wrong length', () => {
  test('one byte too many, in any of the three, is false even though the first bytes verify', async () => {
    const verify = await loadLibsecp256k1();
    const { signature, message, pubkey } = signed();
    expect(verify(signature, message, pubkey)).toBe(true);
    expect(verify(withByte(signature), message, pubkey)).toBe(false);
    expect(verify(signature, withByte(message), pubkey)).toBe(false);
    expect(verify(signature, message, withByte(pubkey))).toBe(false);
  });

  test('one byte too few is false, though the previous call left the missing byte in the heap', async () => {
    const verify = await loadLibsecp256k1();
    const { signature, message, pubkey } = signed();
    expect(verify(signature, message, pubkey)).toBe(true);
    expect(verify(signature.subarray(0, 63), message, pubkey)).toBe(false);
    expect(verify(signature, message, pubkey)).toBe(true);
    expect(verify(signature, message.subarray(0, 31), pubkey)).toBe(false);
    expect(verify(signature, message, pubkey)).toBe(true);
    expect(verify(signature, message, pubkey.subarray(0, 31))).toBe(false);
  });
});

describe('the load-time self-test', () => {
  const refusal = 'libsecp256k1: self-test failed (not the nostr-wasm build this package pins)';

  test('refuses a binary whose verify accepts everything', async () => {
    tapWasm({ verify: () => () => 1 });
    await expect(loadLibsecp256k1()).rejects.toThrow(refusal);
  });

  test('refuses a binary whose verify accepts nothing', async () => {
    tapWasm({ verify: () => () => 0 });
    await expect(loadLibsecp256k1()).rejects.toThrow(refusal);
  });

  test('passes the pinned binary, which then verifies and refuses as @noble/curves does', async () => {
    const tap = tapWasm();
    const verify = await loadLibsecp256k1();
    const { signature, message, pubkey } = signed();
    expect(tap.loads).toBe(1);
    expect(verify(signature, message, pubkey)).toBe(schnorr.verify(signature, message, pubkey));
    expect(verify(signature, sha256(message), pubkey)).toBe(false);
  });
});

describe('the runtime imports the loader hands the binary', () => {
  test('abort and heap growth throw, the stubs answer as the runtime expects, memcpy copies within the heap', async () => {
    const tap = tapWasm();
    await loadLibsecp256k1();
    const [a] = tap.runtimes;
    const [memory] = tap.memories;
    if (a === undefined || memory === undefined) throw new Error('the binary was not loaded');
    expect(() => a.a?.()).toThrow(new Error('libsecp256k1: abort'));
    expect(() => a.d?.()).toThrow(new Error('libsecp256k1: out of memory'));
    expect([a.b?.(), a.c?.(), a.e?.()]).toEqual([0, 70, 52]);
    // Past the few buffers the loader allocated: the top of the heap.
    const heap = new Uint8Array(memory.buffer);
    const at = heap.length - 6;
    heap.set([1, 2, 3, 4, 5, 6], at);
    a.f?.(at, at + 3, 2);
    expect([...heap.subarray(at)]).toEqual([4, 5, 3, 4, 5, 6]);
  });
});

test('verify still answers once the instance memory has a new buffer (a stale view would be silent)', async () => {
  const tap = tapWasm();
  const verify = await loadLibsecp256k1();
  const [memory] = tap.memories as readonly { grow(pages: number): number; readonly buffer: ArrayBuffer }[];
  if (memory === undefined) throw new Error('the binary was not loaded');
  const { signature, message, pubkey } = signed();
  const old = memory.buffer;
  // Growing by zero pages still detaches the old buffer and hands out a new one.
  memory.grow(0);
  expect(old.byteLength).toBe(0);
  expect(verify(signature, message, pubkey)).toBe(true);
  expect(verify(signature, sha256(message), pubkey)).toBe(false);
});
