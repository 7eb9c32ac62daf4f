/**
 * One client process of scenario 5: downloads the catalog with its own token and prints one JSON
 * line. Two of these run at once and share nothing but the server's headers.
 */
import type { BenchClientKind } from './bench-client';
import { makeBenchClient } from './clients';
import { downloadCatalog } from './workloads';

const [kind, baseUrl, vendor, token, pageSize] = process.argv.slice(2) as [BenchClientKind, string, string, string, string];
const client = makeBenchClient(kind, baseUrl, vendor, [token]);
const t0 = performance.now();
const tally = await downloadCatalog(client, token, Number(pageSize), t0);
client.close();
process.stdout.write(JSON.stringify({ ...tally, waits: tally.waits }) + '\n');
