import type { FlowDefinition } from '../model/flow-definition';

export interface MermaidOptions {
  /** Adds `direction LR` (or another direction) after the header. */
  direction?: 'LR' | 'RL' | 'TB' | 'BT';
  /** Appends transition action names to labels: `pay / charge`. */
  showActions?: boolean;
}

/** Mermaid ids allow letters, digits and `_`; other ids get a safe alias and a label. */
function makeIdMapper(stateIds: readonly string[]): {
  id: (stateId: string) => string;
  aliases: Array<[string, string]>;
} {
  const map = new Map<string, string>();
  const used = new Set<string>();
  const aliases: Array<[string, string]> = [];
  for (const stateId of stateIds) {
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(stateId) && !used.has(stateId)) {
      map.set(stateId, stateId);
      used.add(stateId);
    }
  }
  for (const stateId of stateIds) {
    if (map.has(stateId)) continue;
    const base = `s_${stateId.replace(/[^A-Za-z0-9_]/g, '_')}`;
    let alias = base;
    for (let n = 2; used.has(alias); n += 1) alias = `${base}_${n}`;
    map.set(stateId, alias);
    used.add(alias);
    aliases.push([stateId, alias]);
  }
  return { id: (stateId) => map.get(stateId) ?? stateId, aliases };
}

/**
 * Renders a flow as a Mermaid `stateDiagram-v2`: an arrow from `[*]` to the initial state, one
 * arrow per event (labelled with the event id; internal events are self-loops) and per auto-state
 * branch (labelled with the condition, `else` for the unconditional one), auto states as
 * `<<choice>>` nodes, and final states to `[*]`. Render the effective flow
 * (`machine.flow(id)` or {@link applyConfig}) to leave out what config disables.
 *
 * @example
 * renderMermaid(defineFlow('door').manual('OPEN', (s) => s.on('close', 'CLOSED')).final('CLOSED').build());
 * // stateDiagram-v2
 * //   [*] --> OPEN
 * //   OPEN --> CLOSED : close
 * //   CLOSED --> [*]
 */
export function renderMermaid(flow: FlowDefinition, options: MermaidOptions = {}): string {
  const { id, aliases } = makeIdMapper(flow.states.map((s) => s.id));
  const lines: string[] = ['stateDiagram-v2'];
  if (options.direction !== undefined) lines.push(`  direction ${options.direction}`);
  for (const [stateId, alias] of aliases) lines.push(`  state "${stateId}" as ${alias}`);
  for (const s of flow.states) if (s.kind === 'auto') lines.push(`  state ${id(s.id)} <<choice>>`);
  lines.push(`  [*] --> ${id(flow.initialState)}`);
  const label = (text: string, action: string | undefined): string =>
    options.showActions === true && action !== undefined ? `${text} / ${action}` : text;
  for (const s of flow.states) {
    for (const e of s.events ?? []) lines.push(`  ${id(s.id)} --> ${id(e.to ?? s.id)} : ${label(e.id, e.action)}`);
    for (const t of s.transitions ?? [])
      lines.push(`  ${id(s.id)} --> ${id(t.to)} : ${label(t.condition ?? 'else', t.action)}`);
  }
  for (const s of flow.states) if (s.kind === 'final') lines.push(`  ${id(s.id)} --> [*]`);
  for (const s of flow.states) {
    const activities = s.activities ?? [];
    if (activities.length === 0) continue;
    const kind = (mandatory: boolean) => activities.filter((a) => a.mandatory === mandatory).map((a) => a.id);
    const parts = [
      kind(true).length > 0 ? `mandatory: ${kind(true).join(', ')}` : '',
      kind(false).length > 0 ? `optional: ${kind(false).join(', ')}` : '',
    ].filter(Boolean);
    lines.push(`  note right of ${id(s.id)} : activities<br/>${parts.join('<br/>')}`);
  }
  return `${lines.join('\n')}\n`;
}
