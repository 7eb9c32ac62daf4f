/** Test support for code built on the client: a manual clock, a fake Partner service, a harness. */
export { ManualClock, settle } from './manual-clock';
export { errorOf } from './partner-error';
export { FakePartner } from './fake-partner';
export type { FakeAction, FakePartnerOptions, FakeRecord, FakeRefill, FakeRequest } from './fake-partner';
export { FAKE_BASE_URL, drive, harness, runFor, seededRandom } from './harness';
export type { Harness } from './harness';
export { answerAttempt } from './answer-attempt';
export type { AnswerFacts } from './answer-attempt';
