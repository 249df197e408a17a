/**
 * The libsecp256k1 loader's own guards: inputs of the wrong length never reach the fixed heap
 * buffers (a stray byte would overwrite the next buffer, or a short input leave the previous call's
 * bytes behind), the self-test refuses a verify that accepts everything or nothing, and the
 * runtime imports abort, refuse to grow the heap, and copy within it.
 */
import { schnorr } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { describe, expect, test } from 'vitest';
import { loadLibsecp256k1, runtimeImports, selfTest } from '../../src/envelope/libsecp256k1.js';

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
  test('refuses a verify that accepts everything or nothing, and passes libsecp256k1 and @noble/curves', async () => {
    expect(() => {
      selfTest(() => true);
    }).toThrow('libsecp256k1: self-test failed (not the nostr-wasm build this package pins)');
    expect(() => {
      selfTest(() => false);
    }).toThrow('libsecp256k1: self-test failed (not the nostr-wasm build this package pins)');
    expect(() => {
      selfTest((signature, message, pubkey) => schnorr.verify(signature, message, pubkey));
    }).not.toThrow();
    const verify = await loadLibsecp256k1();
    expect(() => {
      selfTest(verify);
    }).not.toThrow();
  });
});

describe('the runtime imports', () => {
  test('abort and heap growth throw, the stubs answer as the runtime expects, memcpy copies within the heap', () => {
    const heap = Uint8Array.of(1, 2, 3, 4, 5, 6);
    const { a } = runtimeImports(() => heap);
    expect(() => a.a?.()).toThrow(new Error('libsecp256k1: abort'));
    expect(() => a.d?.()).toThrow(new Error('libsecp256k1: out of memory'));
    expect([a.b?.(), a.c?.(), a.e?.()]).toEqual([0, 70, 52]);
    a.f?.(0, 3, 2);
    expect([...heap]).toEqual([4, 5, 3, 4, 5, 6]);
  });
});
