/**
 * Start-up for the example agents: a misconfigured agent (an empty or malformed `BUZZ_AGENT_NPUB`,
 * an nsec where the npub goes, an unreachable Redis) stops at once with one line on stderr and
 * exit code 1, instead of a stack trace, or of starting and then refusing every prompt.
 */

/** Runs `start`; on a failure writes `<name>: <message>` to stderr and exits with code 1. */
export async function startUp<T>(name: string, start: () => T | Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    process.stderr.write(`${name}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
