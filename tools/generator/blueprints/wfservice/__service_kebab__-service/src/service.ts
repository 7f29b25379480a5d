// The {{service}} workflow service: @fw/workflow over the flows of flows/{{serviceKebab}}.xml, the
// actions and conditions of ./actions, and the store it is given. `{{serviceCamel}}Services` is what a
// host (a minimonolith, say) registers.
import type { Interceptor, JsonSchema, ServiceDefinition } from '@fw/service';
{{#enablement}}
import type { StmConfig } from '@fw/stm';
{{/enablement}}
import { defineWorkflowService, type WorkflowStore } from '@fw/workflow';
import { actions, conditions } from './actions';
{{#enablement}}
import { loadEnablement } from './enablement';
{{/enablement}}
import { loadFlows } from './flow';
{{#security}}
import { bearerOptionsFromEnv, makeBearerInterceptor, type BearerOptions } from './security';
{{/security}}

export const SERVICE_NAME = '{{service}}';
export const SERVICE_VERSION = '{{serviceVersion}}';

{{^custom}}
/** The create body: what a {{service}} is about. It becomes the entity's `data`. */
export const ENTITY_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['title'],
  additionalProperties: false,
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 200 },
    description: { type: 'string', maxLength: 10000 },
    customer: { type: 'string', maxLength: 200 },
  },
};
{{/custom}}
{{#custom}}
/**
 * The create body, which becomes the entity's `data`: any JSON object until you describe your
 * entity here (a JSON Schema; a body that breaks it is answered 400 naming the field).
 */
export const ENTITY_SCHEMA: JsonSchema = { type: 'object' };
{{/custom}}

export interface {{servicePascal}}ServiceOptions {
  store: WorkflowStore;
  /** Another states XML than the one shipped (tests, experiments). */
  flowsFile?: string;
{{#enablement}}
  /** The switches; default config/enablement.json (or {{serviceConstant}}_ENABLEMENT_FILE). */
  enablement?: StmConfig;
{{/enablement}}
{{#security}}
  /** The JWT check; default from {{serviceConstant}}_JWT_SECRET (and _ISSUER, _AUDIENCE). */
  security?: BearerOptions;
{{/security}}
  /** More service-level interceptors (audit, metrics…), run after the security check. */
  interceptors?: readonly Interceptor[];
}

/** Reads the flows and defines the service; register the result in a host's registry. */
export async function make{{servicePascal}}Service(options: {{servicePascal}}ServiceOptions): Promise<ServiceDefinition> {
  const flows = await loadFlows(options.flowsFile);
{{#security}}
  const interceptors = [makeBearerInterceptor(options.security ?? bearerOptionsFromEnv()), ...(options.interceptors ?? [])];
{{/security}}
{{^security}}
  const interceptors = [...(options.interceptors ?? [])];
{{/security}}
  return defineWorkflowService({
    name: SERVICE_NAME,
    version: SERVICE_VERSION,
    description: '{{service}}: a workflow service (states of flows/{{serviceKebab}}.xml)',
    flows,
    entity: ENTITY_SCHEMA,
    actions,
    conditions,
{{#enablement}}
    config: options.enablement ?? loadEnablement(),
{{/enablement}}
    store: options.store,
    interceptors,
  });
}

/** The service definitions of this package, ready to register in a host (`makeServiceRegistry`). */
export async function {{serviceCamel}}Services(options: {{servicePascal}}ServiceOptions): Promise<ServiceDefinition[]> {
  return [await make{{servicePascal}}Service(options)];
}
