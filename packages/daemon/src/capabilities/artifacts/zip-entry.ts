import { crc32 } from 'node:zlib';
import { ZipPassThrough } from 'fflate';

/** ZIP compression methods (APPNOTE 4.4.5). */
export const STORED = 0;
export const DEFLATED = 8;
export type ZipMethod = typeof STORED | typeof DEFLATED;

/**
 * A ZIP entry whose bytes are compressed outside fflate, by Node's native zlib (several times faster
 * than fflate's JavaScript deflate), with a native CRC-32 too. fflate still writes the headers and
 * data descriptor from `crc` and `size`, which `push` computes from the raw bytes (as fflate's
 * subclassing contract asks); the compressed bytes go out through `whole` or `emit`.
 */
export class NativeZipEntry extends ZipPassThrough {
  /** Sent with the final `push`: the rest of the entry's data. */
  private tail = new Uint8Array(0);
  private runningCrc = 0;

  constructor(filename: string, method: ZipMethod) {
    super(filename);
    this.compression = method;
  }

  /** A whole file at once: `raw` for the CRC and size, `payload` (raw or deflated) as the entry's data. */
  whole(raw: Uint8Array, payload: Uint8Array): void {
    this.tail = payload as Uint8Array<ArrayBuffer>;
    this.push(raw, true);
  }

  /** Compressed (or stored) bytes of a streamed entry, in order, between the raw `push`es. */
  emit(data: Uint8Array): void {
    this.ondata(null, data as Uint8Array<ArrayBuffer>, false);
  }

  /** Raw input: updates CRC and size; the final push releases `tail` and closes the entry. */
  override push(chunk: Uint8Array, final = false): void {
    this.runningCrc = crc32(chunk, this.runningCrc);
    this.size += chunk.length;
    if (final) this.crc = this.runningCrc;
    // fflate types chunks as ArrayBuffer-backed; Node's Buffers may sit on a pool (fflate casts too).
    this.process(chunk as Uint8Array<ArrayBuffer>, final);
  }

  protected override process(_chunk: Uint8Array, final: boolean): void {
    if (final) this.ondata(null, this.tail, true);
  }
}
