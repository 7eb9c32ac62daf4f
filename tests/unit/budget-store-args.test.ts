/** The budget store setting: checked before anything is sent, the same words for the CLI and browser mode. */
import { describe, expect, it } from 'vitest';
import { parseCliArgs, resumeCommand } from '../../electron/catalog/cli-args';
import { budgetStoreProblem } from '../../shared/budget-store-url';
import { RedisSlotStore } from '../../electron/client/redis-slot-store';

describe('--budget-store', () => {
  it('accepts redis://host:port/db and keeps it', () => {
    const parsed = parseCliArgs(['--base-url', 'http://127.0.0.1:1', '--token', 't', '--budget-store', 'redis://10.0.0.5:6379/2'], {}, '/tmp');
    expect(parsed.kind === 'run' && parsed.options.budgetStore).toBe('redis://10.0.0.5:6379/2');
  });

  it("none given: left to the run, whose default is this machine's store", () => {
    const parsed = parseCliArgs(['--base-url', 'http://127.0.0.1:1', '--token', 't'], {}, '/tmp');
    expect(parsed.kind === 'run' && parsed.options.budgetStore).toBeUndefined();
  });

  it.each([
    ['machine', 'machine'],
    [' Machine ', 'Machine'],
    ['none', 'none'],
    ['NONE', 'none'],
  ])('takes %j (the machine store; none: headers only)', (given, kept) => {
    const parsed = parseCliArgs(['--base-url', 'http://127.0.0.1:1', '--token', 't', '--budget-store', given], {}, '/tmp');
    expect(parsed.kind === 'run' && parsed.options.budgetStore).toBe(kept);
  });

  it.each([
    ['http://x:6379', /must be a redis:\/\/host:port\/db URL or "machine", not http:/],
    ['not a url', /must be a redis:\/\/host:port\/db URL/],
    ['redis://x:6379/abc', /database "abc" that is not a number/],
  ])('refuses %s clearly, never printing a password', (url, words) => {
    const parsed = parseCliArgs(['--base-url', 'http://127.0.0.1:1', '--token', 't', '--budget-store', url], {}, '/tmp');
    expect(parsed.kind).toBe('error');
    expect(parsed.kind === 'error' && parsed.message).toMatch(words);
  });

  it('the resume hint of a run on the headers alone keeps `--budget-store none` (it runs again)', () => {
    const hint = resumeCommand(['--base-url', 'http://127.0.0.1:1', '--token', 't', '--out', 'x.jsonl', '--budget-store', 'NONE']);
    expect(hint).toContain('--budget-store none --resume');
  });

  it('a refused URL with credentials does not echo them', () => {
    const parsed = parseCliArgs(['--base-url', 'http://127.0.0.1:1', '--token', 't', '--budget-store', 'redis://user:s3cret@x:6379/abc'], {}, '/tmp');
    expect(parsed.kind === 'error' && parsed.message).not.toContain('s3cret');
  });

  it('refuses a password in the query (it would be stored and shown in plain) and a ?path= that skips the host check, in the CLI and the store', () => {
    for (const [url, words] of [
      ['redis://x:6379/0?password=s3cret', /carries a password in its query/],
      ['redis://x:6379/0?path=/tmp/redis.sock', /query option "path" that is not accepted/],
    ] as const) {
      const parsed = parseCliArgs(['--base-url', 'http://127.0.0.1:1', '--token', 't', '--budget-store', url], {}, '/tmp');
      expect(parsed.kind === 'error' && parsed.message).toMatch(words);
      expect(parsed.kind === 'error' && parsed.message).not.toContain('s3cret');
      expect(() => new RedisSlotStore(url)).toThrow(words);
    }
  });

  it('budgetStoreProblem is null for a good URL', () => {
    expect(budgetStoreProblem('redis://127.0.0.1:6379/0')).toBeNull();
    expect(budgetStoreProblem('redis://127.0.0.1:6379')).toBeNull();
    expect(budgetStoreProblem('machine')).toBeNull();
  });
});
