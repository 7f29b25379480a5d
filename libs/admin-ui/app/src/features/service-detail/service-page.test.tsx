import { defineService, makeServiceRegistry } from '@fw/service';
import { fireEvent, screen, within } from '@testing-library/react';
import { answerFetch, envelope, renderAt } from '../../../test-support/render-app';
import { ServicePage } from './service-page';

const orders = defineService({
  name: 'orders',
  version: '3.1.0',
  description: 'Order intake',
  operations: [
    {
      name: 'create',
      method: 'POST',
      path: '/orders',
      description: 'Places an order',
      input: {
        type: 'object',
        required: ['customer', 'lines'],
        additionalProperties: false,
        properties: {
          customer: { type: 'string', minLength: 1, maxLength: 80, description: 'Customer number' },
          lines: {
            type: 'array',
            minItems: 1,
            items: {
              type: 'object',
              required: ['sku'],
              properties: {
                sku: { type: 'string', pattern: '^[A-Z]{3}-\\d+$' },
                quantity: { type: 'integer', minimum: 1 },
              },
            },
          },
          priority: { enum: ['low', 'high'] },
        },
      },
      output: { type: 'object', properties: { id: { type: 'string', format: 'uuid' } } },
      handler: async () => ({ id: 'x' }),
    },
    { name: 'recount', description: 'In-process only', handler: async () => null },
  ],
  healthCheck: async () => ({ healthy: true }),
});

function routesFor() {
  const registry = makeServiceRegistry({ host: { name: 'h', version: '1' }, services: [orders] });
  return { '/service-info/orders': envelope(registry.describe('orders')) };
}

const view = [
  { path: '/services/:svc', element: <ServicePage /> },
  { path: '/services/:svc/:tab', element: <ServicePage /> },
];

describe('ServicePage', () => {
  it('shows the operations with method, path and their schemas as trees, raw JSON one click away', async () => {
    answerFetch(routesFor());
    renderAt('/services/orders', view);
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toContain('orders');
    expect(screen.getByText('Order intake')).toBeTruthy();
    const create = screen.getByText('/orders').closest('li') as HTMLElement;
    expect(within(create).getByText('POST')).toBeTruthy();
    expect(screen.getByText('in-process')).toBeTruthy();
    fireEvent.click(within(create).getByText('Places an order'));
    const input = within(create).getByRole('heading', { name: 'Input' }).closest('.schema') as HTMLElement;
    const customer = within(input).getByText('customer').closest('li') as HTMLElement;
    expect(customer.textContent).toContain('string');
    expect(customer.textContent).toContain('required');
    expect(customer.textContent).toContain('minLength: 1, maxLength: 80');
    expect(customer.textContent).toContain('Customer number');
    expect(within(input).getByText('array of object')).toBeTruthy();
    expect(within(input).getByText('sku').closest('li')?.textContent).toContain('pattern: "^[A-Z]{3}-\\\\d+$"');
    expect(within(input).getByText('priority').closest('li')?.textContent).toContain('enum: ["low","high"]');
    fireEvent.click(within(input).getByRole('button', { name: 'Raw JSON' }));
    expect(JSON.parse(within(input).getByText(/"customer"/).textContent ?? '')).toEqual(orders.operations[0].input);
    expect(within(input).getByRole('button', { name: 'Tree' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('offers Definition and Health tabs (Workflow only for workflow services) and says when the service is unknown', async () => {
    answerFetch(routesFor());
    renderAt('/services/orders/health', view);
    expect(await screen.findByRole('button', { name: 'Run health probe' })).toBeTruthy();
    expect(screen.getAllByRole('link').map((l) => l.textContent)).toEqual(['Services', 'Definition', 'Health']);
  });

  it('says when the service is unknown', async () => {
    answerFetch({
      '/service-info/nope': { status: 404, body: { success: false, code: 404, description: "Unknown service 'nope'" } },
    });
    renderAt('/services/nope', view);
    expect((await screen.findByRole('alert')).textContent).toBe(
      "Could not read service nope: Unknown service 'nope' (HTTP 404)",
    );
  });
});
