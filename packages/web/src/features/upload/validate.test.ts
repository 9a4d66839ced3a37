import { describe, expect, it } from 'vitest';
import { ErrorBody, UploadResult } from '@forge/shared';
import { UploadError, uploadErrorNotice, uploadFailureNotice } from './validate.ts';

const schemas = { ErrorBody, UploadResult };

describe('project upload failure text (docs/product.md#error-texts)', () => {
  it("shows the server's error field, with its hint under it", () => {
    const body = JSON.stringify({
      error: 'The archive is corrupt or not a ZIP file.',
      code: 'ARCHIVE_CORRUPT',
      hint: 'Re-create the ZIP.',
    });
    expect(uploadFailureNotice(body, schemas)).toEqual({
      title: 'The archive is corrupt or not a ZIP file.',
      description: 'Re-create the ZIP.',
    });
  });

  it('reads the error of an answer whose result says it did not succeed', () => {
    const body = JSON.stringify({
      projectName: 'app',
      builderBots: [],
      buildResult: { success: false, hasPackageJson: false },
      error: 'Nothing to build here',
    });
    expect(uploadFailureNotice(body, schemas)).toEqual({ title: 'Nothing to build here' });
  });

  it('says "Upload failed" when the answer has no error field', () => {
    expect(uploadFailureNotice('<html>Bad Gateway</html>', schemas)).toEqual({ title: 'Upload failed' });
    expect(uploadFailureNotice('{"code":"X"}', schemas)).toEqual({ title: 'Upload failed' });
    expect(uploadFailureNotice('', schemas)).toEqual({ title: 'Upload failed' });
  });

  it('falls back to the generic text for anything that is not a refusal', () => {
    expect(uploadErrorNotice(new TypeError('Failed to fetch'))).toEqual({
      title: 'Failed to upload project. Please try again.',
    });
    expect(uploadErrorNotice(new UploadError({ title: 'Upload failed' }))).toEqual({
      title: 'Upload failed',
    });
  });
});
