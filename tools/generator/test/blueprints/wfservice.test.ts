/**
 * wfservice: each prompt's effect on the generated workflow service, the generated flow XML read by
 * the runtime's own parser (@fw/stm) and driven through its state machine (activities both ways,
 * enablement switches), and the sample — and the variant with every option on — type-checked
 * against the workspace's packages.
 */
import * as path from 'node:path';
import { makeStateMachine, parseFlowsXml, type StmState } from '@fw/stm';
import { parseStatesXml } from '../../src/workflow-xml/states-xml';
import { removeTempDirs } from '../support';
import { generate, typeCheckWorkflowPackage, type Generated } from './support';

afterAll(removeTempDirs);

const ALL_ON = {
  activity: 'mandatory',
  enablement: true,
  jpa: true,
  cloudSwitchEnabled: true,
  security: true,
  enableMCP: true,
};
const OPTIONAL_FILES = [
  'config/enablement.json',
  'src/enablement.ts',
  'test/enablement.test.ts',
  'test/activity.test.ts',
  'src/security.ts',
  'test/security.test.ts',
  'src/client.ts',
  'test/client.test.ts',
  'src/mcp.ts',
  'test/mcp.test.ts',
  'test/store.test.ts',
];

/** The generated flow, through the runtime's parser (strict, as the service loads it). */
async function runtimeFlows(g: Generated, svc = 'ticket') {
  return (await parseFlowsXml(g.read(`${svc}-service/flows/${svc}.xml`), { strict: true })).flows;
}

function pkgJson(
  g: Generated,
  svc = 'ticket',
): { dependencies: Record<string, string>; files: string[]; name: string; version: string } {
  return JSON.parse(g.read(`${svc}-service/package.json`));
}

describe('wfservice', () => {
  it('the sample (defaults) generates the ticket workflow service and type-checks', async () => {
    const g = await generate('wfservice');
    expect(g.run).toMatchObject({ code: 0, err: [] });
    expect(path.basename(g.project)).toBe('ticket');
    expect(g.files).toEqual(
      expect.arrayContaining([
        'README.md',
        'package.json',
        'tsconfig.base.json',
        '.gitignore',
        'ticket-service/flows/ticket.xml',
        'ticket-service/src/service.ts',
        'ticket-service/src/store.ts',
        'ticket-service/test/flow.test.ts',
        'ticket-service/test/walker.ts',
        'ticket-service/test/store.test.ts',
      ]),
    );
    for (const f of OPTIONAL_FILES.filter((x) => x !== 'test/store.test.ts'))
      expect(g.files).not.toContain(`ticket-service/${f}`);
    const [flow] = await runtimeFlows(g);
    expect(flow.states.map((s) => s.id)).toEqual(['OPENED', 'ASSIGNED', 'RESOLVED', 'CLOSED']);
    const edges = flow.states.flatMap((s) => (s.events ?? []).map((e) => `${s.id} -${e.id}→ ${e.to}`));
    expect(edges).toEqual([
      'OPENED -assign→ ASSIGNED',
      'OPENED -close→ CLOSED',
      'ASSIGNED -resolve→ RESOLVED',
      'ASSIGNED -deassign→ OPENED',
      'RESOLVED -close→ CLOSED',
      'RESOLVED -reopen→ ASSIGNED',
    ]);
    expect(() => parseStatesXml(g.read('ticket-service/flows/ticket.xml'), 'ticket.xml')).not.toThrow();
    expect(g.read('ticket-service/src/index.ts')).toContain('ticketServices');
    typeCheckWorkflowPackage(path.join(g.project, 'ticket-service'));
  }, 180_000);

  it('every option on generates every module and test, and type-checks', async () => {
    const g = await generate('wfservice', { ...ALL_ON, service: 'incident', destFolder: 'inc' });
    expect(g.run.code).toBe(0);
    for (const f of OPTIONAL_FILES) expect(g.files).toContain(`incident-service/${f}`);
    typeCheckWorkflowPackage(path.join(g.project, 'incident-service'));
  }, 180_000);

  it('service names the route, the flow, the package, the factories and the folder', async () => {
    const g = await generate('wfservice', { service: 'helpdesk', destFolder: 'hd' });
    expect(pkgJson(g, 'helpdesk').name).toBe('@example/helpdesk-service');
    expect(g.read('helpdesk-service/src/service.ts')).toContain("SERVICE_NAME = 'helpdesk'");
    expect(g.read('helpdesk-service/src/service.ts')).toContain('export async function makeHelpdeskService(');
    expect(g.read('helpdesk-service/src/service.ts')).toContain('export async function helpdeskServices(');
    expect((await runtimeFlows(g, 'helpdesk'))[0].id).toBe('helpdesk');
    expect(g.read('README.md')).toContain('POST /helpdesk');
  });

  it("serviceVersion is the packages' and the service's version", async () => {
    const g = await generate('wfservice', { serviceVersion: '3.1.4' });
    expect(pkgJson(g).version).toBe('3.1.4');
    expect(JSON.parse(g.read('package.json')).version).toBe('3.1.4');
    expect(g.read('ticket-service/src/service.ts')).toContain("SERVICE_VERSION = '3.1.4'");
  });

  it('destFolder is where the project goes', async () => {
    const g = await generate('wfservice', { destFolder: 'nested/here' });
    expect(g.project).toBe(path.join(g.dir, 'nested/here'));
    expect(g.files).toContain('ticket-service/flows/ticket.xml');
  });

  describe('activity', () => {
    const machineFor = async (g: Generated) =>
      makeStateMachine<{ state?: StmState }, undefined>({
        flows: await runtimeFlows(g),
        actions: { recordAssignee: () => undefined, recordComment: () => undefined, clearAssignee: () => undefined },
      });

    it('none: ASSIGNED has no activity, resolve is allowed at once, no activity test', async () => {
      const g = await generate('wfservice', { activity: 'none' });
      expect(g.read('ticket-service/flows/ticket.xml')).not.toContain('<activity');
      expect(g.files).not.toContain('ticket-service/test/activity.test.ts');
      const machine = await machineFor(g);
      expect(machine.isAllowed({ flowId: 'ticket', stateId: 'ASSIGNED' }, 'resolve')).toBe(true);
    });

    it('mandatory: resolve is refused until investigate is done', async () => {
      const g = await generate('wfservice', { activity: 'mandatory' });
      expect(g.read('ticket-service/flows/ticket.xml')).toContain('<activity id="investigate" mandatory="true"/>');
      expect(g.files).toContain('ticket-service/test/activity.test.ts');
      const machine = await machineFor(g);
      const ticket: { state?: StmState } = {};
      await machine.start(ticket, undefined);
      await machine.send(ticket, 'assign', {}, undefined);
      await expect(machine.send(ticket, 'resolve', {}, undefined)).rejects.toMatchObject({
        subErrorCode: 'STM_EVENT_NOT_ALLOWED',
      });
      await machine.send(ticket, 'investigate', {}, undefined);
      await machine.send(ticket, 'resolve', {}, undefined);
      expect(ticket.state?.stateId).toBe('RESOLVED');
      expect(g.read('README.md')).toContain('mandatory activity `investigate`');
    });

    it('optional: investigate is offered, resolve is allowed without it', async () => {
      const g = await generate('wfservice', { activity: 'optional' });
      expect(g.read('ticket-service/flows/ticket.xml')).toContain('<activity id="investigate"/>');
      const machine = await machineFor(g);
      const allowed = machine.allowedEvents({ flowId: 'ticket', stateId: 'ASSIGNED' });
      expect(allowed.find((e) => e.eventId === 'investigate')?.metadata).toMatchObject({ activity: 'optional' });
      expect(machine.isAllowed({ flowId: 'ticket', stateId: 'ASSIGNED' }, 'resolve')).toBe(true);
    });
  });

  describe('enablement', () => {
    it('y: switches in config/enablement.json guard RESOLVED, deassign and reopen; a disabled transition is not allowed', async () => {
      const g = await generate('wfservice', { enablement: true });
      expect(JSON.parse(g.read('ticket-service/config/enablement.json'))).toEqual({
        resolvedEnabled: true,
        deassignEnabled: true,
        reopenEnabled: true,
      });
      expect(g.files).toEqual(
        expect.arrayContaining(['ticket-service/src/enablement.ts', 'ticket-service/test/enablement.test.ts']),
      );
      expect(pkgJson(g).files).toContain('config');
      expect(g.read('ticket-service/src/service.ts')).toContain('config: options.enablement ?? loadEnablement()');
      const flows = await runtimeFlows(g);
      const actions = {
        recordAssignee: () => undefined,
        recordComment: () => undefined,
        clearAssignee: () => undefined,
      };
      const off = makeStateMachine({ flows, actions, config: { reopenEnabled: false } });
      expect(off.isAllowed({ flowId: 'ticket', stateId: 'RESOLVED' }, 'reopen')).toBe(false);
      expect(off.isAllowed({ flowId: 'ticket', stateId: 'RESOLVED' }, 'close')).toBe(true);
      const noResolved = makeStateMachine({ flows, actions, config: { resolvedEnabled: false } });
      expect(noResolved.isAllowed({ flowId: 'ticket', stateId: 'ASSIGNED' }, 'resolve')).toBe(false);
    });

    it('n: no switches, no enabledBy', async () => {
      const g = await generate('wfservice', { enablement: false });
      expect(g.read('ticket-service/flows/ticket.xml')).not.toContain('enabledBy');
      expect(g.files).not.toContain('ticket-service/config/enablement.json');
      expect(g.read('ticket-service/src/service.ts')).not.toContain('loadEnablement');
    });
  });

  it('jpa: y persists through kysely with the framework migration; n keeps entities in memory', async () => {
    const y = await generate('wfservice', { jpa: true });
    expect(y.read('ticket-service/src/store.ts')).toContain('makeDatabaseWorkflowStore');
    expect(y.read('ticket-service/src/store.ts')).toContain('migrateDatabase');
    expect(pkgJson(y).dependencies).toMatchObject({
      '@electric-sql/pglite': expect.any(String),
      kysely: expect.any(String),
    });
    expect(y.files).toContain('ticket-service/test/store.test.ts');
    const n = await generate('wfservice', { jpa: false });
    expect(n.read('ticket-service/src/store.ts')).toContain('makeInMemoryWorkflowStore');
    expect(pkgJson(n).dependencies).not.toHaveProperty('kysely');
    expect(n.files).not.toContain('ticket-service/test/store.test.ts');
  });

  it('security: y puts a bearer JWT interceptor (jose) on the operations; n leaves them open', async () => {
    const y = await generate('wfservice', { security: true });
    expect(y.read('ticket-service/src/security.ts')).toContain("await import('jose')");
    expect(y.read('ticket-service/src/service.ts')).toContain(
      'makeBearerInterceptor(options.security ?? bearerOptionsFromEnv())',
    );
    expect(pkgJson(y).dependencies).toHaveProperty('jose');
    expect(y.read('README.md')).toContain('TICKET_JWT_SECRET');
    const n = await generate('wfservice', { security: false });
    expect(n.files).not.toContain('ticket-service/src/security.ts');
    expect(pkgJson(n).dependencies).not.toHaveProperty('jose');
  });

  it('cloudSwitchEnabled: y adds the client through the service proxy and its local/remote test', async () => {
    const y = await generate('wfservice', { cloudSwitchEnabled: true });
    expect(y.read('ticket-service/src/client.ts')).toContain('makeServiceProxy');
    expect(y.read('ticket-service/src/index.ts')).toContain('makeTicketClient');
    expect(y.files).toContain('ticket-service/test/client.test.ts');
    const n = await generate('wfservice', { cloudSwitchEnabled: false });
    expect(n.files).not.toContain('ticket-service/src/client.ts');
  });

  it('enableMCP: y serves /mcp and tests it with the SDK client', async () => {
    const y = await generate('wfservice', { enableMCP: true });
    expect(y.read('ticket-service/src/app.ts')).toContain('app.use(makeTicketMcpRouter(registry))');
    expect(y.read('ticket-service/test/mcp.test.ts')).toContain('StreamableHTTPClientTransport');
    expect(pkgJson(y).dependencies).toHaveProperty('@modelcontextprotocol/sdk');
    const n = await generate('wfservice', { enableMCP: false });
    expect(n.read('ticket-service/src/app.ts')).not.toContain('Mcp');
    expect(pkgJson(n).dependencies).not.toHaveProperty('@modelcontextprotocol/sdk');
  });
});
