import { MAX_UPLOAD_BYTES } from './constants.ts';
import type { ErrorCode } from './errors.ts';
import { UI_TEXT } from './ui-text.ts';
import { formatBytes } from './format.ts';

/**
 * Why a file cannot be uploaded as a project: the daemon's code and the notice of docs/product.md#validation.
 */
export interface UploadRefusal {
  code: Extract<ErrorCode, 'INVALID_FILE_TYPE' | 'FILE_TOO_LARGE'>;
  /** The notice title (docs/product.md#validation): "Invalid file type" / "File too large". */
  title: string;
  /** The line under it: "Please upload a ZIP file" / "Maximum file size is 50MB". */
  hint: string;
  /** Title, hint and the file's own size in one line, for terminals. */
  line: string;
}

export const isZipName = (name: string): boolean => /\.zip$/i.test(name);

/**
 * The checks every client makes before sending a project (docs/product.md#validation), the same the daemon
 * makes again: the name ends in .zip and the file is at most 50MB. Null when the file may be sent.
 */
export function checkUploadFile(file: { name: string; size: number }): UploadRefusal | null {
  if (!isZipName(file.name)) {
    const { invalidFileType: title, invalidFileTypeHint: hint } = UI_TEXT;
    return { code: 'INVALID_FILE_TYPE', title, hint, line: `${title} — ${hint}` };
  }
  if (file.size > MAX_UPLOAD_BYTES) {
    const { fileTooLarge: title, fileTooLargeHint: hint } = UI_TEXT;
    return {
      code: 'FILE_TOO_LARGE',
      title,
      hint,
      line: `${title} — ${hint} (${file.name} is ${formatBytes(file.size)})`,
    };
  }
  return null;
}
