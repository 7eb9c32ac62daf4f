/**
 * A fresh run over an existing output (a start over) writes into `<out>.new` until its first page is
 * safely there, and only then takes the output's place: until then the previous export and its
 * checkpoint stay as they were, also when the first request fails or the output cannot be replaced.
 */
import { rename as renameFile, rm, stat } from 'node:fs/promises';
import { PartnerError } from '../../shared/errors';
import { isMissing } from './checkpoint';

/** The file moves a start over makes; a test passes one that fails as Windows does on a file open elsewhere. */
export type Rename = (from: string, to: string) => Promise<void>;

export class StartOver {
  /** Where the start over writes until its first page takes the output's place. */
  readonly stagingPath: string;
  /** The previous checkpoint while the output is being replaced: put back if that fails. */
  private readonly asidePath: string;

  constructor(
    private readonly out: string,
    private readonly checkpointPath: string,
    private readonly rename: Rename = renameFile,
  ) {
    this.stagingPath = `${out}.new`;
    this.asidePath = `${checkpointPath}.prev`;
  }

  /**
   * The first page is in the staging file: it replaces the previous export. The old checkpoint is moved
   * aside first, so that a crash between the steps never leaves it beside the new file; when the output
   * cannot be replaced (open in another program) it is put back and the previous download stays resumable.
   */
  async commit(): Promise<void> {
    try {
      await this.rename(this.checkpointPath, this.asidePath);
    } catch (e) {
      if (!isMissing(e)) throw notReplaced(this.out, e, 'The previous download and its checkpoint are kept.');
    }
    try {
      await this.rename(this.stagingPath, this.out);
    } catch (e) {
      const putBack = await this.rename(this.asidePath, this.checkpointPath).then(
        () => true,
        (r: unknown) => isMissing(r),
      );
      throw notReplaced(
        this.out,
        e,
        putBack
          ? 'The previous download and its checkpoint are kept.'
          : `Its checkpoint is in ${this.asidePath}: rename it back to ${this.checkpointPath} to resume the previous download.`,
      );
    }
    await rm(this.asidePath, { force: true }).catch(() => undefined);
  }

  /**
   * A checkpoint left aside by a run that died between commit's steps: while the staging file is still
   * there the output was not replaced, so the checkpoint is the output's again; otherwise it is stale.
   */
  async recover(): Promise<void> {
    if (!(await exists(this.asidePath))) return;
    if (!(await exists(this.checkpointPath)) && (await exists(this.stagingPath))) await this.rename(this.asidePath, this.checkpointPath);
    else await rm(this.asidePath, { force: true });
  }

  /** The staging file of a start over that wrote no page (the previous export is not this run's). */
  async discard(): Promise<void> {
    await rm(this.stagingPath, { force: true });
  }
}

/** Windows refuses to replace a file another program has open (a CSV in Excel): say so, and which file. */
function notReplaced(out: string, e: unknown, kept: string): PartnerError {
  const code = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
  const inUse = code === 'EBUSY' || code === 'EPERM' || code === 'EACCES';
  const reason = e instanceof Error ? e.message : String(e);
  return new PartnerError({
    code: 'INTERNAL',
    retryable: true,
    message: inUse
      ? `Cannot replace ${out}: it is in use by another program or not writable (${String(code)}). ${kept}`
      : `Cannot replace ${out}: ${reason}. ${kept}`,
    ...(inUse ? { hint: `Close ${out} in the program that has it open (such as Excel), then start over again.` } : {}),
  });
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
