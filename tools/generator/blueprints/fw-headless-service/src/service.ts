// The {{service}} service as data (@fw/service): kind `headless`, so it has no HTTP binding and is
// reached only through a registry's `invoke` — in-process, from the event adapter (./events) or
// from the serverless handler (./serverless). Replace the `quote` operation with your own work;
// the schemas are what every caller is checked against before the handler runs.
import { defineService, type ServiceDefinition } from '@fw/service';

export const SERVICE_NAME = '{{service}}';
export const SERVICE_VERSION = '{{serviceVersion}}';

export interface QuoteInput {
  sku: string;
  quantity: number;
  unitPrice: number;
}

export interface Quote {
  sku: string;
  quantity: number;
  discountPercent: number;
  total: number;
}

/** Orders of this many units or more get {@link BULK_DISCOUNT_PERCENT} off. */
export const BULK_QUANTITY = 10;
export const BULK_DISCOUNT_PERCENT = 10;

const QUOTE_INPUT = {
  type: 'object',
  required: ['sku', 'quantity', 'unitPrice'],
  additionalProperties: false,
  properties: {
    sku: { type: 'string', minLength: 1, maxLength: 64 },
    quantity: { type: 'integer', minimum: 1, maximum: 100000 },
    unitPrice: { type: 'number', minimum: 0 },
  },
};

const QUOTE_OUTPUT = {
  type: 'object',
  required: ['sku', 'quantity', 'discountPercent', 'total'],
  properties: {
    sku: { type: 'string' },
    quantity: { type: 'integer' },
    discountPercent: { type: 'number' },
    total: { type: 'number' },
  },
};

export function quote(input: QuoteInput): Quote {
  const discountPercent = input.quantity >= BULK_QUANTITY ? BULK_DISCOUNT_PERCENT : 0;
  // Rounded to cents once, at the end, so the discount is applied to the exact gross amount.
  const total = Math.round(input.quantity * input.unitPrice * (100 - discountPercent)) / 100;
  return { sku: input.sku, quantity: input.quantity, discountPercent, total };
}

/** The service definition a host registers (this package's registry, or a mini-monolith's). */
export function make{{servicePascal}}Service(): ServiceDefinition {
  return defineService({
    name: SERVICE_NAME,
    version: SERVICE_VERSION,
    description: '{{service}}: prices a quantity of an article, with a bulk discount',
    kind: 'headless',
    operations: [
      {
        name: 'quote',
        description: `Total price of quantity × unitPrice, ${BULK_DISCOUNT_PERCENT}% off from ${BULK_QUANTITY} units`,
        input: QUOTE_INPUT,
        output: QUOTE_OUTPUT,
        handler: async (input: QuoteInput) => quote(input),
      },
    ],
    // Nothing external to probe: the check proves the operation still computes a known answer.
    healthCheck: async () => ({ healthy: quote({ sku: 'health', quantity: 1, unitPrice: 1 }).total === 1 }),
  });
}
