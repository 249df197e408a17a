/**
 * The ACP SDK, loaded on first use rather than imported. `@agentclientprotocol/sdk` is an optional
 * peer: imported, its absence would fail `import 'buzz-meta/acp'` with a bare
 * `ERR_MODULE_NOT_FOUND` from inside this package; loaded here, the first call that needs it says
 * what to install. Loaded through `require`, which loads ES modules (Node ≥ 20.19 and ≥ 22.12,
 * the `engines` range; Bun; Deno with a `node_modules` folder) and shares the instance `import`
 * loaded, so the SDK's classes are the ones the agent's own app uses, and the callers stay synchronous.
 */
import { createRequire } from 'node:module';
import type * as Sdk from '@agentclientprotocol/sdk';

const SDK = '@agentclientprotocol/sdk';

const load = createRequire(import.meta.url);
let sdk: typeof Sdk | undefined;

/** Whether `error` says the SDK itself (not something it imports) could not be found. */
function sdkMissing(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  return (code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND') && error.message.includes(`'${SDK}'`);
}

/** `@agentclientprotocol/sdk`, or an `Error` saying to install it. */
export function acpSdk(): typeof Sdk {
  if (sdk !== undefined) return sdk;
  try {
    sdk = load(SDK) as typeof Sdk;
  } catch (error) {
    if (sdkMissing(error)) {
      throw new Error(`buzz-meta/acp needs its optional peer dependency ${SDK} (2.4 or later): npm install ${SDK}`, {
        cause: error,
      });
    }
    throw error;
  }
  return sdk;
}
