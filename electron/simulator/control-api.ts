/**
 * The simulator's HTTP control API under /_sim/: JSON in and out, validated with zod, never
 * rate-limited, no token. Bad input is a 400 in the service's error shape, and changes nothing.
 *
 *   GET  /_sim/state                      -> SimulatorState
 *   GET  /_sim/counters                   -> { counters: Counter[] }
 *   PUT  /_sim/refill       { model }      -> { refill }
 *   PUT  /_sim/dialect      { dialect }    -> { dialect }
 *   PUT  /_sim/faults       { ...patch }   -> { faults }
 *   PUT  /_sim/competitors  { competitors }-> { competitors }
 *   POST /_sim/reset        { what: 'budgets' | 'all' } -> { reset }
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { SIM_DIALECTS } from '../../shared/sim-dialects';
import { REFILL_MODELS } from './budget';
import { describeIssues } from './faults';
import { errorBody, readBody, sendJson } from './http-io';
import type { RefillModel } from './budget';
import type { CompetitorConfig, FaultConfig, SimulatorControl } from './types';

const refillSchema = z.object({ model: z.enum(REFILL_MODELS as [RefillModel, ...RefillModel[]]) }).strict();
const dialectSchema = z.object({ dialect: z.enum(SIM_DIALECTS) }).strict();
const competitorsBodySchema = z.object({ competitors: z.array(z.unknown()) }).strict();
const resetSchema = z.object({ what: z.enum(['budgets', 'all']) }).strict();

class BadInput extends Error {}

function parseJson(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new BadInput('Request body is not valid JSON.');
  }
}

function check<T>(schema: z.ZodType<T>, value: unknown): T {
  const r = schema.safeParse(value);
  if (!r.success) throw new BadInput(describeIssues(r.error));
  return r.data;
}

interface Route {
  method: 'GET' | 'PUT' | 'POST';
  run: (control: SimulatorControl, body: unknown) => unknown;
}

const ROUTES: Record<string, Route> = {
  '/_sim/state': { method: 'GET', run: (c) => c.state() },
  '/_sim/counters': { method: 'GET', run: (c) => ({ counters: c.counters() }) },
  '/_sim/refill': {
    method: 'PUT',
    run: (c, body) => {
      c.setRefill(check(refillSchema, body).model);
      return { refill: c.state().refill };
    },
  },
  '/_sim/dialect': {
    method: 'PUT',
    run: (c, body) => {
      c.setDialect(check(dialectSchema, body).dialect);
      return { dialect: c.state().dialect };
    },
  },
  '/_sim/faults': { method: 'PUT', run: (c, body) => ({ faults: c.setFaults(body as Partial<FaultConfig>) }) },
  '/_sim/competitors': {
    method: 'PUT',
    run: (c, body) => {
      c.setCompetitors(check(competitorsBodySchema, body).competitors as CompetitorConfig[]);
      return { competitors: c.state().competitors };
    },
  },
  '/_sim/reset': {
    method: 'POST',
    run: (c, body) => {
      const { what } = check(resetSchema, body);
      if (what === 'all') c.resetAll();
      else c.resetBudgets();
      return { reset: what };
    },
  },
};

export function createControlHandler(control: SimulatorControl, clock: () => number): (req: IncomingMessage, res: ServerResponse, path: string) => void {
  const answer = (res: ServerResponse, status: number, body: unknown): void => sendJson(res, status, body, clock(), { 'Cache-Control': 'no-store' });

  return (req, res, path) => {
    const route = ROUTES[path];
    if (!route) return answer(res, 404, errorBody(404, `Unknown control path ${path}. Known: ${Object.keys(ROUTES).join(', ')}.`));
    if (req.method !== route.method) {
      res.setHeader('Allow', route.method);
      return answer(res, 405, errorBody(405, `${path} only handles ${route.method}.`));
    }
    const respond = (text: string): void => {
      try {
        answer(res, 200, route.run(control, route.method === 'GET' ? undefined : parseJson(text)));
      } catch (e) {
        // Control methods throw RangeError on bad values; nothing was changed.
        if (e instanceof BadInput || e instanceof RangeError || e instanceof TypeError) return answer(res, 400, errorBody(400, e.message));
        answer(res, 500, errorBody(500, `Simulator bug: ${e instanceof Error ? e.message : String(e)}`));
      }
    };
    if (route.method === 'GET') return respond('');
    void readBody(req).then((b) => {
      if (b.ok) respond(b.text);
      else if (b.reason === 'too-large') answer(res, 400, errorBody(400, 'Request body is larger than 1 MiB.'));
    });
  };
}
