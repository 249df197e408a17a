/**
 * The turn bookkeeping behind `buzzHandlers`: each claim is settled once, whichever of commit,
 * release and cancel comes first; a turn cancelled before it holds its claim releases it at once;
 * `session/cancel` reaches every open turn of its session and none that was closed.
 */
import { describe, expect, test } from 'vitest';
import { Turn, TurnRegistry } from '../../src/acp/turns.js';
import type { BuzzClaim } from '../../src/dedup/types.js';

function recordingClaim(): { claim: BuzzClaim; settles: string[] } {
  const settles: string[] = [];
  const claim: BuzzClaim = {
    fresh: [],
    seen: [],
    commit: () => {
      settles.push('commit');
      return Promise.resolve();
    },
    release: () => {
      settles.push('release');
      return Promise.resolve();
    },
  };
  return { claim, settles };
}

describe('Turn', () => {
  test('a claim is settled once: the first of commit and release wins', async () => {
    const committed = recordingClaim();
    const first = new Turn();
    await first.hold(committed.claim);
    await first.commit();
    await first.commit();
    await first.release();
    expect(committed.settles).toEqual(['commit']);

    const released = recordingClaim();
    const second = new Turn();
    await second.hold(released.claim);
    await second.release();
    await second.cancel();
    await second.commit();
    expect(released.settles).toEqual(['release']);
  });

  test('without a claim, commit, release and cancel settle nothing and do not throw', async () => {
    const turn = new Turn();
    await expect(turn.commit()).resolves.toBeUndefined();
    await expect(turn.release()).resolves.toBeUndefined();
    await expect(turn.cancel()).resolves.toBeUndefined();
    expect(turn.cancelled).toBe(true);
  });

  test('cancel aborts the signal with a session/cancel reason and releases; holding after it releases at once', async () => {
    const held = recordingClaim();
    const turn = new Turn();
    await turn.hold(held.claim);
    expect([turn.cancelled, turn.signal.aborted, held.settles]).toEqual([false, false, []]);
    await turn.cancel();
    expect(turn.signal.aborted).toBe(true);
    expect((turn.signal.reason as Error).message).toBe('session/cancel');
    expect(held.settles).toEqual(['release']);

    const late = recordingClaim();
    const cancelledFirst = new Turn();
    await cancelledFirst.cancel();
    await cancelledFirst.hold(late.claim);
    expect(late.settles).toEqual(['release']);
    await cancelledFirst.commit();
    expect(late.settles).toEqual(['release']);
  });
});

describe('TurnRegistry', () => {
  test('cancel reaches every open turn of the session, none of another session, none closed', async () => {
    const registry = new TurnRegistry();
    const a1 = registry.open('a');
    const a2 = registry.open('a');
    const b = registry.open('b');
    expect(await registry.cancel('a')).toBe(2);
    expect([a1.cancelled, a2.cancelled, b.cancelled]).toEqual([true, true, false]);

    registry.close('b', b);
    expect(await registry.cancel('b')).toBe(0);
    expect(b.cancelled).toBe(false);

    const a3 = registry.open('a');
    registry.close('a', a1);
    registry.close('a', a2);
    expect(await registry.cancel('a')).toBe(1);
    expect(a3.cancelled).toBe(true);
    registry.close('a', a3);
    registry.close('unknown', a3);
    expect(await registry.cancel('a')).toBe(0);
    expect(await registry.cancel('unknown')).toBe(0);
  });
});

describe('TurnRegistry.run', () => {
  test('the turn is open while the body runs and closed after, also when the body throws', async () => {
    const registry = new TurnRegistry();
    const inside = await registry.run('s', new AbortController().signal, async (turn) => {
      const reached = await registry.cancel('s');
      return [reached, turn.cancelled];
    });
    expect(inside).toEqual([1, true]);
    expect(await registry.cancel('s')).toBe(0);

    await expect(
      registry.run('s', new AbortController().signal, () => Promise.reject(new Error('handler failed'))),
    ).rejects.toThrow('handler failed');
    expect(await registry.cancel('s')).toBe(0);
  });

  test("the request's own abort cancels the running turn and releases its claim", async () => {
    const registry = new TurnRegistry();
    const request = new AbortController();
    const held = recordingClaim();
    const seen = await registry.run('s', request.signal, async (turn) => {
      await turn.hold(held.claim);
      request.abort();
      await Promise.resolve();
      return [turn.cancelled, [...held.settles]];
    });
    expect(seen).toEqual([true, ['release']]);
  });

  test('after the body ended, an abort of the request no longer touches the turn', async () => {
    const registry = new TurnRegistry();
    const request = new AbortController();
    let kept: Turn | undefined;
    await registry.run('s', request.signal, (turn) => {
      kept = turn;
      return Promise.resolve();
    });
    request.abort();
    expect(kept?.cancelled).toBe(false);
  });

  test('a release that fails during an abort is swallowed, not an unhandled rejection', async () => {
    const registry = new TurnRegistry();
    const request = new AbortController();
    const failing: BuzzClaim = {
      fresh: [],
      seen: [],
      commit: () => Promise.resolve(),
      release: () => Promise.reject(new Error('store down')),
    };
    const cancelled = await registry.run('s', request.signal, async (turn) => {
      await turn.hold(failing);
      request.abort();
      await new Promise((resolve) => setTimeout(resolve, 5));
      return turn.cancelled;
    });
    expect(cancelled).toBe(true);
  });
});
