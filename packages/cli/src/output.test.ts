import { ForgeHttpError, ForgeUnreachableError, errorBody } from '@forge/shared';
import { describe, expect, it } from 'vitest';
import { CliError, describeError, EXIT } from './output.ts';

const http = (status: number, code: Parameters<typeof errorBody>[0]) =>
  new ForgeHttpError(status, '', JSON.stringify(errorBody(code)));

describe('describeError', () => {
  it('maps the daemon’s archive and config refusals to exit 6, from any command', () => {
    for (const [status, code] of [
      [422, 'ARCHIVE_PATH_TRAVERSAL'],
      [422, 'BLUEPRINT_INVALID_CONFIG'],
      [400, 'INVALID_FILE_TYPE'],
      [413, 'FILE_TOO_LARGE'],
    ] as const) {
      const described = describeError(http(status, code));
      expect(described).toMatchObject({ exitCode: EXIT.refused, code });
      expect(described.text).toContain(`[${code}, HTTP ${status}]`);
      // The --json message is the daemon's sentence, without the tag.
      expect(described.message).not.toContain('[');
    }
  });

  it('any other 4xx of an upload is a refusal once marked so; access problems never are', () => {
    const body = Object.assign(http(400, 'VALIDATION_FAILED'), { refused: true });
    expect(describeError(body).exitCode).toBe(EXIT.refused);
    expect(describeError(http(400, 'VALIDATION_FAILED')).exitCode).toBe(EXIT.failure);
    expect(describeError(http(401, 'TOKEN_REQUIRED'))).toMatchObject({
      exitCode: EXIT.failure,
      hint: expect.stringContaining('--token'),
    });
  });

  it('a newer upload of the project is a cancellation (5); an unreachable daemon is 3', () => {
    expect(describeError(http(409, 'BUILD_SUPERSEDED')).exitCode).toBe(EXIT.cancelled);
    expect(
      describeError(new ForgeUnreachableError('http://127.0.0.1:1', new Error('refused'))),
    ).toMatchObject({
      exitCode: EXIT.unreachable,
      code: 'DAEMON_UNREACHABLE',
    });
  });

  it('takes a CliError’s code, or derives one from its exit code', () => {
    expect(describeError(new CliError('bad', { exitCode: EXIT.usage }))).toMatchObject({ code: 'USAGE' });
    expect(describeError(new CliError('x', { exitCode: EXIT.refused, code: 'FILE_TOO_LARGE' })).code).toBe(
      'FILE_TOO_LARGE',
    );
    expect(describeError(new Error('boom'))).toMatchObject({ exitCode: EXIT.failure, code: 'UNEXPECTED' });
  });
});
