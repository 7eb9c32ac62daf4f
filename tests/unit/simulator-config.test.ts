/** Simulator configuration: tokens, CLI flags, fault patches and competitor lists. */
import { describe, expect, it } from 'vitest';
import { CliError, DEFAULT_CLI_PORT, parseCliArgs } from '../../electron/simulator/cli-args';
import { checkCompetitors } from '../../electron/simulator/competitors';
import { NO_FAULTS, applyFaultPatch } from '../../electron/simulator/faults';
import { DEFAULT_TOKENS, normaliseTokens, parseTokenSpec, parseTokensFile } from '../../electron/simulator/tokens';

const noFile = (): string => {
  throw new Error('no file expected');
};

describe('tokens', () => {
  it('parses VENDOR:TOKEN, keeping colons inside the token', () => {
    expect(parseTokenSpec('acme:abc')).toEqual({ vendor: 'acme', token: 'abc' });
    expect(parseTokenSpec('acme:a:b:c')).toEqual({ vendor: 'acme', token: 'a:b:c' });
  });

  it('refuses specs without a vendor, a token or with spaces', () => {
    for (const bad of ['acme', ':tok', 'acme:', 'ac me:tok', 'acme:to k', 'acme:tøk']) expect(() => parseTokenSpec(bad)).toThrow(RangeError);
  });

  it('reads a tokens file with comments and blank lines, naming the bad line', () => {
    const text = '# vendors\n\nacme:one\n  acme:two   # second\nbeta:x#y\n';
    expect(parseTokensFile(text)).toEqual([
      { vendor: 'acme', token: 'one' },
      { vendor: 'acme', token: 'two' },
      { vendor: 'beta', token: 'x#y' },
    ]);
    expect(() => parseTokensFile('acme:one\nbroken\n')).toThrow(/line 2/);
  });

  it('drops exact duplicates and refuses one token for two vendors or an empty list', () => {
    expect(normaliseTokens([...DEFAULT_TOKENS, DEFAULT_TOKENS[0]!])).toHaveLength(DEFAULT_TOKENS.length);
    expect(() =>
      normaliseTokens([
        { vendor: 'a', token: 't' },
        { vendor: 'b', token: 't' },
      ]),
    ).toThrow(/both/);
    expect(() => normaliseTokens([])).toThrow(RangeError);
  });

  it('the defaults are two demo tokens and one acme token', () => {
    expect(DEFAULT_TOKENS).toEqual([
      { vendor: 'demo', token: 'demo-token-1' },
      { vendor: 'demo', token: 'demo-token-2' },
      { vendor: 'acme', token: 'acme-token-1' },
    ]);
  });
});

describe('parseCliArgs', () => {
  it('defaults: port 8700 on 127.0.0.1, no faults, no competitors, demo tokens', () => {
    const r = parseCliArgs([], noFile);
    expect(r).toEqual({ help: false, options: { port: DEFAULT_CLI_PORT, host: '127.0.0.1', faults: {}, competitors: [] } });
  });

  it('reads every flag', () => {
    const r = parseCliArgs(
      [
        '--port',
        '0',
        '--host',
        '0.0.0.0',
        '--refill',
        'continuous',
        '--catalog-size',
        '1000000',
        '--seed=-7',
        '--token',
        'a:1',
        '--token',
        'b:2',
        '--latency',
        '5',
        '--jitter',
        '2.5',
        '--error-rate',
        '0.1',
        '--drop-rate',
        '0',
        '--garble-rate',
        '1',
        '--compete',
        'a:listAssets:10',
        '--compete',
        'b:/purchase/info:0.5',
      ],
      noFile,
    );
    expect(r).toEqual({
      help: false,
      options: {
        port: 0,
        host: '0.0.0.0',
        refill: 'continuous',
        catalogSize: 1_000_000,
        seed: -7,
        tokens: [
          { vendor: 'a', token: '1' },
          { vendor: 'b', token: '2' },
        ],
        faults: { latencyMs: 5, jitterMs: 2.5, errorRate: 0.1, dropRate: 0, garbleRate: 1 },
        competitors: [
          { vendor: 'a', endpoint: 'listAssets', rps: 10 },
          { vendor: 'b', endpoint: 'purchaseInfo', rps: 0.5 },
        ],
      },
    });
  });

  it('--tokens-file replaces the defaults, and --token adds to the file', () => {
    const r = parseCliArgs(['--tokens-file', 'f.txt', '--token', 'z:9'], (p) => (p === 'f.txt' ? 'x:1\n# c\ny:2\n' : ''));
    expect(r.help === false && r.options.tokens).toEqual([
      { vendor: 'x', token: '1' },
      { vendor: 'y', token: '2' },
      { vendor: 'z', token: '9' },
    ]);
  });

  it('--help', () => {
    expect(parseCliArgs(['--help'], noFile)).toEqual({ help: true });
  });

  const bad: [string, string[]][] = [
    ['unknown flag', ['--bogus']],
    ['positional', ['extra']],
    ['port text', ['--port', 'x']],
    ['port too big', ['--port', '70000']],
    ['refill', ['--refill', 'smooth']],
    ['catalog size', ['--catalog-size', '-1']],
    ['catalog size too big', ['--catalog-size', '20000000']],
    ['seed', ['--seed', '1.5']],
    ['token', ['--token', 'novendor']],
    ['error rate', ['--error-rate', '1.5']],
    ['drop rate', ['--drop-rate', 'lots']],
    ['latency', ['--latency', '-1']],
    ['compete shape', ['--compete', 'a:listAssets']],
    ['compete endpoint', ['--compete', 'a:nope:5']],
    ['compete rps', ['--compete', 'a:listAssets:0']],
    ['missing value', ['--port']],
    ['empty host', ['--host', ' ']],
  ];
  for (const [label, argv] of bad) {
    it(`refuses ${label} with a CliError`, () => {
      expect(() => parseCliArgs(argv, noFile)).toThrow(CliError);
    });
  }

  it('an unreadable or empty tokens file is a CliError naming the file', () => {
    expect(() =>
      parseCliArgs(['--tokens-file', 'gone.txt'], () => {
        throw new Error('ENOENT');
      }),
    ).toThrow(/gone\.txt/);
    expect(() => parseCliArgs(['--tokens-file', 'empty.txt'], () => '# nothing\n')).toThrow(/empty\.txt/);
  });
});

describe('fault patches', () => {
  it('applies a partial patch and keeps the rest', () => {
    expect(applyFaultPatch(NO_FAULTS, { errorRate: 0.5 })).toEqual({ ...NO_FAULTS, errorRate: 0.5 });
    expect(applyFaultPatch({ ...NO_FAULTS, latencyMs: 9 }, {})).toEqual({ ...NO_FAULTS, latencyMs: 9 });
  });

  it('refuses bad values and unknown fields, naming them', () => {
    expect(() => applyFaultPatch(NO_FAULTS, { errorRate: 2 })).toThrow(/errorRate/);
    expect(() => applyFaultPatch(NO_FAULTS, { dropRate: -0.1 })).toThrow(/dropRate/);
    expect(() => applyFaultPatch(NO_FAULTS, { latencyMs: Number.POSITIVE_INFINITY })).toThrow(RangeError);
    expect(() => applyFaultPatch(NO_FAULTS, { latencyMs: '5' })).toThrow(/latencyMs/);
    expect(() => applyFaultPatch(NO_FAULTS, { errorRat: 0.1 })).toThrow(RangeError);
    expect(() => applyFaultPatch(NO_FAULTS, [1])).toThrow(RangeError);
  });
});

describe('competitor lists', () => {
  const vendors = new Set(['demo']);
  it('accepts known vendors, endpoint ids and positive rps', () => {
    expect(checkCompetitors([{ vendor: 'demo', endpoint: 'listAssets', rps: 5 }], vendors)).toEqual([{ vendor: 'demo', endpoint: 'listAssets', rps: 5 }]);
  });
  it('refuses unknown vendors and endpoints, and rps out of range', () => {
    expect(() => checkCompetitors([{ vendor: 'x', endpoint: 'listAssets', rps: 5 }], vendors)).toThrow(/unknown vendor/);
    expect(() => checkCompetitors([{ vendor: 'demo', endpoint: '/assets/list', rps: 5 }], vendors)).toThrow(RangeError);
    expect(() => checkCompetitors([{ vendor: 'demo', endpoint: 'listAssets', rps: 0 }], vendors)).toThrow(RangeError);
    expect(() => checkCompetitors([{ vendor: 'demo', endpoint: 'listAssets', rps: 1e6 }], vendors)).toThrow(RangeError);
    expect(() => checkCompetitors('all', vendors)).toThrow(RangeError);
  });
});
