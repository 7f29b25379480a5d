// The {{service}} flows: read from flows/{{serviceKebab}}.xml (the states XML of @fw/stm) when the
// service is made, so editing the XML changes the workflow without touching code.
import * as path from 'node:path';
import { loadFlowsFile, type FlowDefinition } from '@fw/stm';

/** The states XML shipped with this package (dist/src → the package folder). */
export const FLOWS_FILE = path.join(__dirname, '..', '..', 'flows', '{{serviceKebab}}.xml');

/** The flow new {{service}} entities start in. */
export const DEFAULT_FLOW_ID = '{{#custom}}{{defaultFlowId}}{{/custom}}{{^custom}}{{service}}{{/custom}}';

/**
 * Reads and checks the flows. `strict`: an unreachable state is an error, not a warning — the
 * generator checked the file the same way, so a later edit that breaks it fails here, at start.
 */
export async function loadFlows(file: string = FLOWS_FILE): Promise<FlowDefinition[]> {
  const { flows } = await loadFlowsFile(file, { strict: true });
  return flows;
}
