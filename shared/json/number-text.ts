/**
 * A JSON integer past 2^53 kept as the digits the service wrote (a snowflake id): a JS number
 * would round it. Main carries it as is, writes it back as number text (exports, request bodies,
 * the checkpoint), and the bridge carries it as its digits (a string).
 */
export class NumberText {
  constructor(readonly text: string) {}

  toString(): string {
    return this.text;
  }

  /** Where a plain JSON.stringify meets it (a log line): its digits, never a rounded number. */
  toJSON(): string {
    return this.text;
  }
}

/** An integer literal a JS number cannot hold exactly. */
export function isUnsafeIntegerText(literal: string): boolean {
  return /^-?(0|[1-9]\d*)$/.test(literal) && !Number.isSafeInteger(Number(literal));
}
