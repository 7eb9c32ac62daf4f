/**
 * Copy as curl reproduces the request that was sent: a loopback server keeps the raw request line,
 * headers and body bytes of the app's request and of the copied command run by bash + curl, and
 * they are compared byte for byte (percent-encoding of the query, a 64-bit id, unicode, shell
 * characters in the body, the User-Agent).
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PartnerClient } from '../../electron/client/partner-client';
import { createTransport } from '../../electron/client/transport';
import { appUserAgent } from '../../electron/client/user-agent';
import { createTelemetry } from '../../electron/telemetry';
import { maskedTarget } from '../../electron/telemetry/exchange';
import type { Telemetry } from '../../electron/telemetry/telemetry';
import { NumberText } from '../../shared/json/number-text';
import { toCurl } from '../../shared/curl';
import { until } from '../helpers/app-calls';

const TOKEN = 'tok-curl-exact-0123456789';

interface Captured {
  line: string;
  headers: Map<string, string>;
  body: Buffer;
}

/** A raw HTTP/1.1 server: keeps each request as it came over the wire, answers 200 {} and closes. */
function captureServer(into: Captured[]): Server {
  return createServer((socket) => {
    let data = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [line, ...fields] = data.subarray(0, end).toString('latin1').split('\r\n');
      const headers = new Map(fields.map((f) => [f.slice(0, f.indexOf(':')).toLowerCase(), f.slice(f.indexOf(':') + 1).trim()]));
      const length = Number(headers.get('content-length') ?? 0);
      if (data.length < end + 4 + length) return;
      into.push({ line: line!, headers, body: data.subarray(end + 4, end + 4 + length) });
      socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}');
    });
    socket.on('error', () => undefined);
  });
}

function runInBash(command: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      '/bin/bash',
      ['-c', `${command} --silent --output /dev/null`],
      { env: { PATH: '/usr/bin:/bin', PARTNER_TOKEN: TOKEN }, timeout: 10_000 },
      (error, _out, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve()),
    );
  });
}

let server: Server;
let base: string;
const captured: Captured[] = [];
let telemetry: Telemetry;
let client: PartnerClient;

beforeAll(async () => {
  server = captureServer(captured);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  telemetry = createTelemetry({ maskContext: () => ({ tokens: [TOKEN], tokenHeaders: new Set() }) });
  const fetch = createTransport({ userAgent: appUserAgent('9.8.7'), observe: (inner) => telemetry.wrapFetch(inner) });
  client = new PartnerClient({ baseUrl: base, vendor: 'acme', tokens: [TOKEN], fetch, retry: { maxAttempts: 1 } });
  client.onSample((s) => telemetry.record(s));
});

afterAll(async () => {
  client?.close();
  await new Promise((resolve) => server?.close(resolve));
});

/** Sends through the client, copies the newest logged request as curl, runs it: the two captures. */
async function sentAndCopied(send: () => Promise<unknown>): Promise<[Captured, Captured]> {
  captured.length = 0;
  await send();
  const [entry] = telemetry.requestLog({ endpoint: null, status: null, limit: 1 }).entries;
  await until(async () => telemetry.requestDetail(entry!.id)?.responseBody !== null);
  const d = telemetry.requestDetail(entry!.id)!;
  const command = toCurl({ ...d, headers: d.requestHeaders, body: d.requestBody });
  expect(command).not.toContain(TOKEN);
  await runInBash(command);
  expect(captured).toHaveLength(2);
  return [captured[0]!, captured[1]!];
}

function expectSame(app: Captured, curl: Captured): void {
  expect(curl.line).toBe(app.line);
  expect(curl.body.equals(app.body)).toBe(true);
  for (const name of ['user-agent', 'authorization', 'accept', 'content-type']) expect(curl.headers.get(name), name).toBe(app.headers.get(name));
}

describe('Copy as curl sends the request that was sent', () => {
  it('a query with a quote, brackets, spaces and an ellipsis: the same request line, percent-encoding and all', async () => {
    const [app, curl] = await sentAndCopied(() => client.request('listAssets', { query: { last_id: "O'Brien (2) ok! [x]{y}", next: 'Books…2', n: 3 } }));
    expect(app.line).toBe('GET /assets/list?last_id=O%27Brien+%282%29+ok%21+%5Bx%5D%7By%7D&next=Books%E2%80%A62&n=3 HTTP/1.1');
    expectSame(app, curl);
    expect(app.headers.get('user-agent')).toBe('PartnerConsole/9.8.7');
  });

  it('a body with a 64-bit id, unicode and shell characters: the same bytes', async () => {
    const body = { asset_id: new NumberText('18446744073709551615'), note: 'Ça coûte 5 € — $HOME `id` "q" \'a\' \\n 😀' };
    const [app, curl] = await sentAndCopied(() => client.request('searchAssets', { body }));
    expect(app.body.toString('utf8')).toContain('18446744073709551615');
    expectSame(app, curl);
  });
});

describe('the logged target', () => {
  const mask = { tokens: [TOKEN], tokenHeaders: new Set<string>() };

  it('keeps every byte as sent, and masks only a part that carries a token', () => {
    const sent = `http://h/a%2Fb/c?q=O%27Brien+%282%29&x=Books%E2%80%A62&t=${TOKEN}&e=&flag`;
    const target = maskedTarget(sent, mask);
    expect(target).toMatch(/^\/a%2Fb\/c\?q=O%27Brien\+%282%29&x=Books%E2%80%A62&t=[^&]+&e=&flag$/);
    expect(target).not.toContain(TOKEN);
    expect(maskedTarget('http://h/list?', mask)).toBe('/list?');
  });
});
