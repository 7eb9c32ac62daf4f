/**
 * `--detect` of the catalog command line: probe the service (categories and one list page, no
 * search: a download never searches), say what was found on stderr.
 */
import type { Proposal } from '../../shared/service-map/detect';
import { probeService } from '../service-map/probe';
import type { ProbeClient } from '../service-map/probe';

export async function detectForCli(client: ProbeClient, stderr: { write(text: string): unknown }): Promise<Proposal> {
  const { proposal, requests } = await probeService(client, { search: false });
  const m = proposal.map;
  stderr.write(
    `catalog: detected a service map with ${requests} requests (confidence ${proposal.confidence}): items at ${m.list.items ?? 'the first array'}, ` +
      `id ${m.asset.id}, page size \`${m.list.pageSizeParam ?? 'unknown'}\`, cursor ${m.list.cursor ?? "the last item's id"}\n`,
  );
  for (const warning of proposal.warnings) stderr.write(`catalog: warning: ${warning}\n`);
  return proposal;
}
