/**
 * Which tokens a download was made with, without the tokens: a slow keyed hash (scrypt under a random
 * salt of the checkpoint's own) of each. A resume that shares none of them asks another vendor's
 * catalog, most likely, and would append it to this file.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

export const tokenFingerprintSchema = z.object({ salt: z.string().min(1), hashes: z.array(z.string()).min(1) });
export type TokenFingerprint = z.output<typeof tokenFingerprintSchema>;

function hashOf(token: string, salt: string): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(token, salt, 32, (e, key) => (e ? reject(e) : resolve(key))));
}

export async function fingerprintTokens(tokens: readonly string[], salt = randomBytes(16).toString('base64url')): Promise<TokenFingerprint> {
  const hashes = await Promise.all([...new Set(tokens)].map(async (t) => (await hashOf(t, salt)).toString('base64url')));
  return { salt, hashes };
}

/** One token in common is the same vendor: a set of tokens may have had one replaced since. */
export async function sharesToken(saved: TokenFingerprint, tokens: readonly string[]): Promise<boolean> {
  const known = saved.hashes.map((h) => Buffer.from(h, 'base64url'));
  for (const token of new Set(tokens)) {
    const hash = await hashOf(token, saved.salt);
    if (known.some((k) => k.length === hash.length && timingSafeEqual(k, hash))) return true;
  }
  return false;
}
