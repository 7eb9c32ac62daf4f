/**
 * The catalog command line's service map: --service-map's; on --resume, the one its checkpoint
 * recorded (never detected again mid-download); else detected (the default: categories and one list
 * page, no search, since a download never searches), or the built-in shapes with --no-detect.
 * What detection found is said on stderr.
 */
import type { Proposal } from '../../shared/service-map/detect';
import type { ServiceMap } from '../../shared/service-map/schema';
import { probeService } from '../service-map/probe';
import type { ProbeClient } from '../service-map/probe';
import { FIRST_CONTACT_MIN_CONFIDENCE } from '../service-map/first-contact';
import { checkpointPathFor, readCheckpoint } from './checkpoint';
import type { CliOptions } from './cli-args';

type Stderr = { write(text: string): unknown };

export async function detectForCli(client: ProbeClient, stderr: Stderr): Promise<Proposal> {
  const { proposal, requests } = await probeService(client, { search: false });
  const m = proposal.map;
  stderr.write(
    `catalog: detected a service map with ${requests} requests (confidence ${proposal.confidence}): items at ${m.list.items ?? 'the first array'}, ` +
      `id ${m.asset.id}, page size \`${m.list.pageSizeParam ?? 'unknown'}\`, cursor ${m.list.cursor ?? "the last item's id"}\n`,
  );
  for (const warning of proposal.warnings) stderr.write(`catalog: warning: ${warning}\n`);
  return proposal;
}

export interface RunMap {
  /** undefined: the built-in shapes. The name flags are written into it by the download (pageShape). */
  map?: ServiceMap;
  /** Detection's warnings, for the summary. */
  warnings: string[];
}

export async function serviceMapForRun(options: CliOptions, client: ProbeClient, stderr: Stderr): Promise<RunMap> {
  const builtIn: RunMap = { warnings: [] };
  const withMap = (map: ServiceMap, warnings: string[] = []): RunMap => ({ map, warnings });
  if (options.serviceMap) return { ...builtIn, map: options.serviceMap };
  if (options.resume) {
    // A damaged checkpoint is the download's to report; here it only means "nothing recorded".
    const saved = await readCheckpoint(checkpointPathFor(options.out)).catch(() => null);
    if (saved?.serviceMap) {
      stderr.write('catalog: resuming with the service map the checkpoint recorded\n');
      return withMap(saved.serviceMap);
    }
    // No readable recorded map: the download refuses to resume (never read the rest another way), so nothing is detected for it.
    if (saved && !options.detect?.explicit) return builtIn;
  }
  if (!options.detect) return builtIn;
  const detected = await detectForCli(client, stderr);
  if (!options.detect.explicit && detected.confidence < FIRST_CONTACT_MIN_CONFIDENCE) {
    const why = detected.warnings[0] ?? `confidence ${detected.confidence}`;
    stderr.write(`catalog: no service map detected (${why}): the built-in shapes are used (give --service-map FILE, or --detect to use what was found)\n`);
    return { ...builtIn, warnings: [`No service map detected (${why}): the built-in shapes were used.`] };
  }
  return withMap(detected.map, detected.warnings);
}
