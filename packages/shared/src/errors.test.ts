import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, ERROR_CODES, ErrorBody, errorBody, httpErrorMessage } from './errors.ts';

describe('error catalogue', () => {
  it('gives every code an HTTP error status and a message', () => {
    for (const code of ERROR_CODES) {
      const entry = ERROR_CATALOGUE[code];
      expect(entry.status).toBeGreaterThanOrEqual(400);
      expect(entry.status).toBeLessThan(600);
      expect(entry.message.length).toBeGreaterThan(0);
    }
  });
  it('builds the one wire shape with the catalogue message and hint', () => {
    const body = errorBody('HOST_NOT_ALLOWED');
    expect(ErrorBody.parse(body)).toEqual(body);
    expect(body.code).toBe('HOST_NOT_ALLOWED');
    expect(body.hint).toContain('localhost');
    expect(errorBody('VALIDATION_FAILED', 'name is required').error).toBe('name is required');
  });
  it('uses the upload texts of docs/product.md#error-texts', () => {
    expect(errorBody('INVALID_FILE_TYPE')).toMatchObject({
      error: 'Invalid file type',
      hint: 'Please upload a ZIP file',
    });
    expect(errorBody('FILE_TOO_LARGE')).toMatchObject({
      error: 'File too large',
      hint: 'Maximum file size is 50MB',
    });
  });
});

describe('httpErrorMessage (docs/product.md#error-texts)', () => {
  it('is "status: body text", or the status text when the body is empty', () => {
    expect(httpErrorMessage(500, 'Internal Server Error', 'boom')).toBe('500: boom');
    expect(httpErrorMessage(404, 'Not Found', '')).toBe('404: Not Found');
  });
});
