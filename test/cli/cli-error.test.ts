/** `CliError`: the name, message and exit code the command reports. */
import { describe, expect, test } from 'vitest';
import { CliError, EXIT } from '../../src/cli/cli-error.js';

describe('CliError', () => {
  test('usage or input error (exit 2) unless told otherwise', () => {
    const error = new CliError('line 3: not JSON');
    expect({ name: error.name, message: error.message, exitCode: error.exitCode }).toEqual({
      name: 'CliError',
      message: 'line 3: not JSON',
      exitCode: 2,
    });
    expect(new CliError('x', EXIT.checkFailed).exitCode).toBe(1);
    expect(error).toBeInstanceOf(Error);
  });
});
