import type { TestCase } from '../../api/info-types';

/**
 * The flow's diagram with the states of one test case's path marked (Mermaid `classDef` + `class`),
 * so the path stands out on the whole machine.
 */
export function highlightPath(diagram: string, testCase: TestCase): string {
  const states = new Set<string>();
  for (const step of testCase.steps) {
    states.add(step.from);
    states.add(step.to);
  }
  const safe = [...states].filter((s) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(s));
  if (safe.length === 0) return diagram;
  const lines = diagram.replace(/\s+$/, '').split('\n');
  lines.push('  classDef onPath fill:#ffd54f,stroke:#b45309,stroke-width:3px,color:#111');
  lines.push(`  class ${safe.join(',')} onPath`);
  return `${lines.join('\n')}\n`;
}
