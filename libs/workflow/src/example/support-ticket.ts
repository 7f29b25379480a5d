/**
 * The example workflow (a support ticket), shipped so hosts can show one (the admin server's dev
 * profile serves it as `support-ticket`): OPENED -assign→ ASSIGNED, OPENED -close→ CLOSED,
 * ASSIGNED -resolve→ RESOLVED, ASSIGNED -deassign→ OPENED, RESOLVED -close→ CLOSED,
 * RESOLVED -reopen→ ASSIGNED.
 */
import { defineFlow, type FlowDefinition } from '@fw/stm';
import type { JsonSchema } from '@fw/service';

export const SUPPORT_TICKET_FLOW: FlowDefinition = defineFlow('support-ticket')
  .asDefault()
  .manual('OPENED', (s) => s.on('assign', 'ASSIGNED').on('close', 'CLOSED'))
  .manual('ASSIGNED', (s) => s.on('resolve', 'RESOLVED').on('deassign', 'OPENED'))
  .manual('RESOLVED', (s) => s.on('close', 'CLOSED').on('reopen', 'ASSIGNED'))
  .final('CLOSED')
  .build();

/** The create body of a support ticket. */
export const SUPPORT_TICKET_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['title'],
  additionalProperties: false,
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 200 },
    description: { type: 'string', maxLength: 10_000 },
    customer: { type: 'string', maxLength: 200 },
  },
};
