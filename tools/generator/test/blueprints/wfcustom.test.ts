/**
 * wfcustom: the states XML is checked during input validation — a broken one is refused with
 * GEN_SPEC_INVALID naming the line, and nothing is written — and each prompt's effect on the
 * generated service (the XML as the activity answer shapes it, the switches of its enabledBy
 * properties, the actions and conditions it names). The sample and the all-options variant are
 * type-checked against the workspace's packages.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { makeStateMachine, parseFlowsXml, type StmState } from '@fw/stm';
import { makeBlueprintCatalog } from '../../src/blueprint/catalog';
import { DEFAULT_CONFIG } from '../../src/config/generator-config';
import { GeneratorErrorCodes, isGeneratorError } from '../../src/errors';
import { makeGenerator } from '../../src/processors/generator';
import { removeTempDirs, tempDir } from '../support';
import { generate, typeCheckWorkflowPackage, type Generated } from './support';

afterAll(removeTempDirs);

const SAMPLE = readFileSync(path.join(__dirname, '../../blueprints/wfcustom/META-INF/samples/states.xml'), 'utf8');
const PKG = 'expense-claim-service';
const XML = `${PKG}/flows/expense-claim.xml`;

/** Generates with an XML document through the generator API; answers the error, or undefined. */
async function refusal(xml: string): Promise<{ code?: string; message: string; destination: string }> {
  const dir = tempDir('fw-gen-wfcustom-bad-');
  writeFileSync(path.join(dir, 'claim.xml'), xml);
  const generator = makeGenerator({
    catalog: makeBlueprintCatalog(),
    config: DEFAULT_CONFIG,
    progress: () => undefined,
  });
  const destination = path.join(dir, 'out');
  try {
    await generator.generate({
      blueprint: 'wfcustom',
      answers: { xmlFile: 'claim.xml', destFolder: 'out' },
      cwd: dir,
      baseDir: dir,
    });
  } catch (err) {
    if (!isGeneratorError(err)) throw err;
    return { code: err.code, message: err.message, destination };
  }
  return { message: 'generated', destination };
}

const noActions = (names: string[]) => Object.fromEntries(names.map((n) => [n, () => undefined]));

describe('wfcustom', () => {
  it('the sample generates a service on the sample XML that type-checks', async () => {
    const g = await generate('wfcustom');
    expect(g.run).toMatchObject({ code: 0, err: [] });
    expect(existsSync(path.join(g.dir, 'states.xml'))).toBe(true);
    expect(path.basename(g.project)).toBe('expense-claim');
    expect(g.read(XML)).toBe(SAMPLE);
    const actions = g.read(`${PKG}/src/actions.ts`);
    expect(actions).toContain('"notifyClaimant": recordInHistory("notifyClaimant")');
    expect(actions).toContain('"recordSubmission": recordInHistory("recordSubmission")');
    expect(actions).toContain('"largeAmount": flag("largeAmount")');
    expect(g.read(`${PKG}/src/flow.ts`)).toContain("DEFAULT_FLOW_ID = 'expense-claim'");
    expect(g.read(`${PKG}/src/service.ts`)).toContain("ENTITY_SCHEMA: JsonSchema = { type: 'object' }");
    expect(g.files).toContain(`${PKG}/test/activity.test.ts`);
    expect(g.read('README.md')).toContain('states DRAFT, needsApproval, PENDING_APPROVAL, APPROVED, PAID, WITHDRAWN');
    typeCheckWorkflowPackage(path.join(g.project, PKG));
  }, 180_000);

  it('every option on generates every module and type-checks', async () => {
    const g = await generate('wfcustom', {
      activity: 'mandatory',
      enablement: true,
      jpa: false,
      cloudSwitchEnabled: true,
      security: true,
      enableMCP: true,
    });
    expect(g.run.code).toBe(0);
    for (const f of [
      'config/enablement.json',
      'src/enablement.ts',
      'src/security.ts',
      'src/client.ts',
      'src/mcp.ts',
      'test/enablement.test.ts',
      'test/security.test.ts',
      'test/client.test.ts',
      'test/mcp.test.ts',
    ])
      expect(g.files).toContain(`${PKG}/${f}`);
    typeCheckWorkflowPackage(path.join(g.project, PKG));
  }, 180_000);

  it('xmlFile: the document given is the flow of the service', async () => {
    const dir = tempDir('fw-gen-wfcustom-xml-');
    const other = SAMPLE.replace('id="expense-claim"', 'id="claims-v2"');
    writeFileSync(path.join(dir, 'v2.xml'), other);
    const g = await generate('wfcustom', { xmlFile: path.join(dir, 'v2.xml') });
    expect(g.read(XML)).toBe(other);
    expect(g.read(`${PKG}/src/flow.ts`)).toContain("DEFAULT_FLOW_ID = 'claims-v2'");
  });

  describe('activity', () => {
    async function leaveDraft(g: Generated, doFirst: string[]): Promise<string | undefined> {
      const { flows } = await parseFlowsXml(g.read(XML), { strict: true });
      const machine = makeStateMachine<{ state?: StmState; data: Record<string, unknown> }, undefined>({
        flows,
        actions: noActions(['notifyClaimant', 'recordSubmission']),
        conditions: { largeAmount: () => false },
      });
      const claim: { state?: StmState; data: Record<string, unknown> } = { data: {} };
      await machine.start(claim, undefined);
      for (const a of doFirst) await machine.send(claim, a, {}, undefined);
      try {
        await machine.send(claim, 'submit', {}, undefined);
      } catch (err) {
        return (err as { subErrorCode?: string }).subErrorCode;
      }
      return claim.state?.stateId;
    }

    it('optional (default): as written — submit needs attachReceipts only', async () => {
      const g = await generate('wfcustom', { activity: 'optional' });
      expect(await leaveDraft(g, [])).toBe('STM_EVENT_NOT_ALLOWED');
      expect(await leaveDraft(g, ['attachReceipts'])).toBe('APPROVED');
    });

    it('mandatory: an activity without mandatory="…" becomes mandatory — submit needs addComment too', async () => {
      const g = await generate('wfcustom', { activity: 'mandatory' });
      expect(g.read(XML)).toContain('<activity mandatory="true" id="addComment"/>');
      expect(await leaveDraft(g, ['attachReceipts'])).toBe('STM_EVENT_NOT_ALLOWED');
      expect(await leaveDraft(g, ['attachReceipts', 'addComment'])).toBe('APPROVED');
    });

    it('none: the activities are left out, submit is allowed at once, no activity test', async () => {
      const g = await generate('wfcustom', { activity: 'none' });
      expect(g.read(XML)).not.toContain('<activity');
      expect(g.read(XML)).not.toMatch(/\n\s*\n\s*<on eventId="submit"/);
      expect(await leaveDraft(g, [])).toBe('APPROVED');
      expect(g.files).not.toContain(`${PKG}/test/activity.test.ts`);
    });
  });

  it('enablement: y writes a switch per enabledBy property of the XML; n none', async () => {
    const y = await generate('wfcustom', { enablement: true });
    expect(JSON.parse(y.read(`${PKG}/config/enablement.json`))).toEqual({ rejectEnabled: true });
    const { flows } = await parseFlowsXml(y.read(XML));
    const off = makeStateMachine({
      flows,
      actions: noActions(['notifyClaimant', 'recordSubmission']),
      conditions: { largeAmount: () => true },
      config: { rejectEnabled: false },
    });
    expect(off.isAllowed({ flowId: 'expense-claim', stateId: 'PENDING_APPROVAL' }, 'reject')).toBe(false);
    expect(off.isAllowed({ flowId: 'expense-claim', stateId: 'PENDING_APPROVAL' }, 'approve')).toBe(true);
    const n = await generate('wfcustom', { enablement: false });
    expect(n.files).not.toContain(`${PKG}/config/enablement.json`);
  });

  it('jpa, security, cloudSwitchEnabled, enableMCP act as for wfservice', async () => {
    const g = await generate('wfcustom', { jpa: false, security: true, cloudSwitchEnabled: true, enableMCP: true });
    expect(g.read(`${PKG}/src/store.ts`)).toContain('makeInMemoryWorkflowStore');
    expect(g.read(`${PKG}/src/security.ts`)).toContain('EXPENSE_CLAIM_JWT_SECRET');
    expect(g.read(`${PKG}/src/client.ts`)).toContain('export function makeExpenseClaimClient(');
    expect(g.read(`${PKG}/src/app.ts`)).toContain('makeExpenseClaimMcpRouter');
  });

  describe('a states XML breaking a rule is refused before anything is written, naming the line', () => {
    const cases: Array<[string, string, RegExp]> = [
      [
        'malformed XML',
        SAMPLE.replace('<end-state id="PAID"/>', '<end-state id="PAID">'),
        /line 29: malformed XML .*<\/flow> closes <end-state> opened on line 27/,
      ],
      [
        'an unreachable state',
        SAMPLE.replace(
          '    <end-state id="PAID"/>',
          '    <manual-state id="LIMBO">\n      <on eventId="leave" newStateId="PAID"/>\n    </manual-state>\n    <end-state id="PAID"/>',
        ),
        /line 27: Flow 'expense-claim', state 'LIMBO': state cannot be reached from the initial state 'DRAFT'/,
      ],
      [
        'an unknown target',
        SAMPLE.replace('newStateId="PAID"', 'newStateId="PAYED"'),
        /line 25: Flow 'expense-claim', state 'APPROVED', event 'pay': target state 'PAYED' does not exist/,
      ],
      [
        'no initial state',
        SAMPLE.replace(' initialState="true"', ''),
        /line 8: Flow 'expense-claim': no initial state is declared/,
      ],
      [
        'a misspelt attribute',
        SAMPLE.replace('initialState="true"', 'intialState="true"'),
        /line 9: Flow 'expense-claim', state 'DRAFT': unknown attribute 'intialState' on <manual-state>/,
      ],
      [
        'two initial states',
        SAMPLE.replace('<manual-state id="APPROVED">', '<manual-state id="APPROVED" initialState="true">'),
        /line 23: Flow 'expense-claim': more than one initial state: 'DRAFT', 'APPROVED'/,
      ],
      [
        'a manual state without events',
        SAMPLE.replace('<on eventId="pay" newStateId="PAID"/>', ''),
        /line 23: Flow 'expense-claim', state 'APPROVED': manual state has no events/,
      ],
      [
        'a branch after the else branch',
        SAMPLE.replace(
          '<transition to="APPROVED"/>',
          '<transition to="APPROVED"/>\n      <transition to="PENDING_APPROVAL" condition="urgent"/>',
        ),
        /line 18: Flow 'expense-claim', state 'needsApproval': transition #3 \(condition 'urgent'\) follows the unconditional transition \(line 17\)/,
      ],
      [
        'two flows, none of them the default',
        SAMPLE.replace(' default="true"', '').replace(
          '</states>',
          '  <flow id="other">\n    <end-state id="DONE" initialState="true"/>\n  </flow>\n</states>',
        ),
        /line 8: with 2 flows, mark the one new entities start in default="true"/,
      ],
    ];
    it.each(cases)('%s', async (_name, xml, expected) => {
      const refused = await refusal(xml);
      expect(refused.code).toBe(GeneratorErrorCodes.SPEC_INVALID);
      expect(refused.message).toMatch(/claim\.xml\) is not a valid states XML; nothing was written/);
      expect(refused.message).toMatch(expected);
      expect(existsSync(refused.destination)).toBe(false);
    });

    it('the same document, fixed, generates', async () => {
      expect((await refusal(SAMPLE)).message).toBe('generated');
    });
  });
});
