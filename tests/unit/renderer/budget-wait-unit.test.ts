/** The Wait column reads in ms on every row: a wait under a millisecond is "<1 ms", not a bare "0" among "386 ms". */
import { expect, it } from 'vitest';
import { waitTitle } from '../../../renderer/src/views/budget/BudgetTable';
import { emptyWaitCauses } from '../../../shared/wait-causes';

it('a wait under a millisecond says "<1 ms"; a wait of none says "0 ms"', () => {
  const none = { wait: { meanMs: 0, p95Ms: 0.3 }, heldMs: 0, waitCauses: emptyWaitCauses() } as unknown as Parameters<typeof waitTitle>[0];
  expect(waitTitle(none)).toBe('mean 0 ms, 95% waited at most <1 ms');
});
