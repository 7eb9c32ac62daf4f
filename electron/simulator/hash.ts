/**
 * Small integer hashes for the generated catalog. Every asset field is a pure function of
 * (seed, index), so a page of a million-asset catalog costs the same as a page of a small one.
 */

/** murmur3's 32-bit finaliser: a cheap, well-mixed bijection on 32-bit integers. */
export function mix32(x: number): number {
  let h = x | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The seed, mixed once per catalog (hashLane's first argument). */
export function mixSeed(seed: number): number {
  return mix32(seed ^ 0x9e3779b9);
}

/** A hash of (mixed seed, index, lane): independent-looking 32-bit values per field ("lane") of an asset. */
export function hashLane(mixedSeed: number, index: number, lane: number): number {
  return mix32(mix32(mixedSeed ^ index) + Math.imul(lane + 1, 0x27d4eb2d));
}
