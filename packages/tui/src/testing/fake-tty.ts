import { EventEmitter } from 'node:events';

/** A writable terminal: records everything written, reports a size that tests can change. */
export class FakeTtyOutput extends EventEmitter {
  isTTY: boolean;
  columns: number;
  rows: number;
  output = '';
  /** Each write on its own; in Ink's debug mode every write is one whole frame. */
  writes: string[] = [];

  constructor({
    isTTY = true,
    columns = 80,
    rows = 24,
  }: { isTTY?: boolean; columns?: number; rows?: number } = {}) {
    super();
    this.isTTY = isTTY;
    this.columns = columns;
    this.rows = rows;
  }

  write = (chunk: string | Uint8Array, encodingOrCallback?: unknown, callback?: () => void): boolean => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    this.output += text;
    this.writes.push(text);
    const done = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
    if (typeof done === 'function') (done as () => void)();
    return true;
  };

  resize(columns: number, rows: number): void {
    this.columns = columns;
    this.rows = rows;
    this.emit('resize');
  }

  asStream(): NodeJS.WriteStream {
    return this as unknown as NodeJS.WriteStream;
  }
}

/** A keyboard: `press` delivers keys the way Ink reads a raw-mode TTY ('readable' + read()). */
export class FakeTtyInput extends EventEmitter {
  isTTY: boolean;
  isRaw = false;
  private pending: string | null = null;

  constructor({ isTTY = true }: { isTTY?: boolean } = {}) {
    super();
    this.isTTY = isTTY;
  }

  press(keys: string): void {
    this.pending = keys;
    this.emit('readable');
  }

  read = (): string | null => {
    const data = this.pending;
    this.pending = null;
    return data;
  };

  setRawMode(raw: boolean): this {
    this.isRaw = raw;
    return this;
  }
  setEncoding(): this {
    return this;
  }
  resume(): this {
    return this;
  }
  pause(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }

  asStream(): NodeJS.ReadStream {
    return this as unknown as NodeJS.ReadStream;
  }
}
