import { isPartnerError } from '../../../shared/errors';
import type { PartnerError } from '../../../shared/errors';

/**
 * The PartnerError `promise` rejects with, for assertions on its code and data. Fails the test if
 * the promise resolves, and rethrows any other rejection as it is (a bug, not an expected error).
 */
export async function errorOf(promise: Promise<unknown>): Promise<PartnerError> {
  try {
    await promise;
  } catch (e) {
    if (isPartnerError(e)) return e;
    throw e;
  }
  throw new Error('expected a PartnerError');
}
