/**
 * Ids on the bridge. A service's id is a number or a string; one past 2^53 (a snowflake) would
 * round as a JS number, so main reads it as NumberText and the bridge carries its digits as a
 * string. A rounded number never crosses: an integer id past 2^53 given as a number is refused.
 */
import { z } from 'zod';
import { NumberText } from './json/number-text';

const PAST_SAFE = { message: 'an integer id past 2^53 travels as its digits (a string), never as a rounded number' };
const notRounded = (v: unknown): boolean => typeof v !== 'number' || !Number.isInteger(v) || Number.isSafeInteger(v);

/** An id as the bridge carries it (output); main may hand it a NumberText, which leaves as its digits. */
export const exactIdSchema = z.union([z.number(), z.string(), z.instanceof(NumberText).transform((n) => n.text)]).refine(notRounded, PAST_SAFE);
export type ExactId = z.output<typeof exactIdSchema>;

/** An asset id the page sends: a whole number within 2^53, or a non-empty id (the digits of a larger one). */
export const exactIdRequestSchema = z.union([z.number().int().nonnegative(), z.string().trim().min(1).max(200)]).refine(notRounded, PAST_SAFE);

/** A cursor (last_id) the page sends back. */
export const cursorRequestSchema = z.union([z.string().min(1), z.number()]).refine(notRounded, PAST_SAFE);
