/**
 * The output file as a write stream that respects backpressure (memory stays flat however large
 * the catalog), with a flush that waits until every byte is handed to the OS and fsynced: the
 * checkpoint may only say "these bytes are written" once they are.
 */
import { createWriteStream } from 'node:fs';
import type { WriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { PartnerError } from '../../shared/errors';

export class OutputFile {
  private failure: Error | null = null;
  private closed = false;
  /** Bytes in the file: the length it had when opened plus everything written since. */
  bytes: number;

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    private readonly stream: WriteStream,
    startBytes: number,
  ) {
    this.bytes = startBytes;
    stream.on('error', (e) => {
      this.failure ??= e;
    });
  }

  /** Opens for appending (resume, after truncation to the checkpoint) or creates/empties the file. */
  static async open(path: string, mode: 'append' | 'replace', startBytes: number): Promise<OutputFile> {
    let handle: FileHandle;
    try {
      handle = await open(path, mode === 'append' ? 'a' : 'w');
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      throw new PartnerError({ code: 'INTERNAL', message: `Cannot open ${path}: ${reason}`, retryable: true });
    }
    // The stream owns the handle from here and closes it when it ends or fails.
    const stream = createWriteStream(path, { fd: handle });
    return new OutputFile(path, handle, stream, mode === 'append' ? startBytes : 0);
  }

  /** Writes text; waits for 'drain' when the stream's buffer is full. */
  async write(text: string): Promise<void> {
    this.throwIfFailed();
    this.bytes += Buffer.byteLength(text, 'utf8');
    if (!this.stream.write(text, 'utf8')) await this.waitFor('drain');
  }

  /** Resolves once every byte written so far is in the file and on disk. */
  async flush(): Promise<void> {
    this.throwIfFailed();
    await new Promise<void>((resolve, reject) => {
      // Writes complete in order: the callback of an empty write comes after all earlier ones.
      this.stream.write('', (e) => (e ? reject(this.error('write', e)) : resolve()));
    });
    try {
      await this.handle.sync();
    } catch (e) {
      throw this.error('sync', e instanceof Error ? e : new Error(String(e)));
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.stream.destroyed) return;
    await new Promise<void>((resolve) => {
      this.stream.end(() => resolve());
      this.stream.once('error', () => resolve());
    });
  }

  private waitFor(event: 'drain'): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const onError = (e: Error): void => {
        this.stream.off(event, onEvent);
        reject(this.error('write', e));
      };
      const onEvent = (): void => {
        this.stream.off('error', onError);
        resolve();
      };
      this.stream.once(event, onEvent);
      this.stream.once('error', onError);
    });
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.error('write', this.failure);
    if (this.closed) throw this.error('write', new Error('the file is closed'));
  }

  private error(action: string, e: Error): PartnerError {
    return new PartnerError({ code: 'INTERNAL', message: `Cannot ${action} ${this.path}: ${e.message}`, retryable: true });
  }
}
