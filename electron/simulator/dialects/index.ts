/** The simulator's payload dialects by name (see each module's header, and /work/notes/dialects.md). */
import { SIM_DIALECTS, isSimDialect } from '../../../shared/sim-dialects';
import type { SimDialect } from '../../../shared/sim-dialects';
import { camelMinor } from './camel-minor';
import { jsonapi } from './jsonapi';
import { snakeEnvelope } from './snake-envelope';
import type { Dialect } from './types';

export type { Dialect } from './types';
export { runInDialect } from './run';

const canonical: Dialect = { name: 'default', summary: "the built-in demo's own shapes (items/last_id/has_more, per-page)", names: null, answers: null };

export const DIALECTS: Readonly<Record<SimDialect, Dialect>> = {
  default: canonical,
  jsonapi,
  'camel-minor': camelMinor,
  'snake-envelope': snakeEnvelope,
};

/** The dialect of that name; RangeError naming the known ones otherwise. */
export function dialectNamed(name: unknown): Dialect {
  if (isSimDialect(name)) return DIALECTS[name];
  throw new RangeError(`dialect must be one of ${SIM_DIALECTS.join(', ')}, got ${JSON.stringify(name)}`);
}
