/**
 * The Grafana dashboard of the repository (`docs/grafana/fw-dashboard.json`) against the series
 * `makeFwMetrics()` declares: every metric a PromQL expression names is one of them (a histogram
 * through its `_bucket`, `_sum` or `_count`), every label it groups or filters by is one of that
 * series' labels, every expression over series with a tenant label is filtered by the tenant
 * variable, and every fw series is shown somewhere — so renaming a series or a label fails
 * here until the dashboard follows.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Registry } from 'prom-client';
import { makeFwMetrics } from '@fw/telemetry';

const DASHBOARD = path.resolve(__dirname, '../../../docs/grafana/fw-dashboard.json');

interface Target {
  expr?: string;
}
interface Panel {
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  targets?: Target[];
  panels?: Panel[];
}
interface Dashboard {
  __inputs: Array<{ name: string; type: string; pluginId: string }>;
  schemaVersion: number;
  uid: string;
  title: string;
  panels: Panel[];
  templating: { list: Array<{ name: string; definition: string; datasource: { uid: string } }> };
}

/** PromQL words that are not metric names: functions, aggregations and keywords. */
const PROMQL_WORDS = new Set([
  'sum',
  'max',
  'min',
  'avg',
  'count',
  'rate',
  'irate',
  'increase',
  'histogram_quantile',
  'by',
  'without',
  'label_values',
]);

/** Each fw series with its labels (a histogram also answers under its three sample names). */
function declaredSeries(): Map<string, Set<string>> {
  const registry = makeFwMetrics(new Registry(), { defaultMetrics: false }).registry;
  const series = new Map<string, Set<string>>();
  for (const metric of registry.getMetricsAsArray()) {
    const labels = new Set<string>((metric as unknown as { labelNames: string[] }).labelNames);
    const histogram = (metric as unknown as { type: string }).type === 'histogram';
    if (!histogram) series.set(metric.name, labels);
    else
      for (const suffix of ['_bucket', '_sum', '_count'])
        series.set(`${metric.name}${suffix}`, new Set([...labels, 'le']));
  }
  return series;
}

function allPanels(panels: readonly Panel[]): Panel[] {
  return panels.flatMap((p) => [p, ...allPanels(p.panels ?? [])]);
}

interface Reference {
  metric: string;
  labels: string[];
}

/** The metrics an expression reads, each with the labels it filters by, and the labels it groups by. */
function referencesOf(expr: string): { metrics: Reference[]; grouping: string[]; words: string[] } {
  // label_values(<selector>, <label>): the label is one the selector's series must have.
  const valuesOf = /label_values\(\s*([^,]+?)\s*,\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\)/.exec(expr);
  const source = valuesOf ? valuesOf[1] : expr;
  const withoutStrings = source.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  const metrics: Reference[] = [];
  if (valuesOf && !withoutStrings.includes('{')) metrics.push({ metric: withoutStrings.trim(), labels: [] });
  for (const m of withoutStrings.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\s*\{([^}]*)\}/g))
    metrics.push({
      metric: m[1],
      labels: [...m[2].matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)/g)].map((l) => l[1]),
    });
  const grouping = [...(valuesOf ? [valuesOf[2]] : [])];
  grouping.push(
    ...[...withoutStrings.matchAll(/\b(?:by|without)\s*\(([^)]*)\)/g)].flatMap((g) =>
      g[1]
        .split(',')
        .map((l) => l.trim())
        .filter((l) => l !== ''),
    ),
  );
  // Every other word: what is left once label sets, groupings, ranges, variables and numbers go.
  const rest = withoutStrings
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\b(?:by|without)\s*\([^)]*\)/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\$\w+/g, ' ')
    .replace(/\b\d+(?:\.\d+)?\b/g, ' ');
  const words = [...rest.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)].map((w) => w[0]);
  return { metrics, grouping, words };
}

describe('docs/grafana/fw-dashboard.json', () => {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as Dashboard;
  const series = declaredSeries();
  const exprs = [
    ...allPanels(dashboard.panels).flatMap((p) =>
      (p.targets ?? []).map((t) => ({ where: p.title, expr: t.expr ?? '' })),
    ),
    ...dashboard.templating.list.map((v) => ({ where: `variable ${v.name}`, expr: v.definition })),
  ];

  it('is a Grafana 10+ dashboard whose Prometheus data source is an import input', () => {
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(38);
    expect(dashboard.uid).toBe('fw-overview');
    expect(dashboard.__inputs).toEqual([
      expect.objectContaining({ name: 'DS_PROMETHEUS', type: 'datasource', pluginId: 'prometheus' }),
    ]);
    for (const panel of allPanels(dashboard.panels).filter((p) => p.type !== 'row'))
      expect({ panel: panel.title, datasource: panel.datasource }).toEqual({
        panel: panel.title,
        datasource: { type: 'prometheus', uid: '${DS_PROMETHEUS}' },
      });
    expect(dashboard.templating.list.map((v) => [v.name, v.datasource.uid])).toEqual([
      ['tenant', '${DS_PROMETHEUS}'],
      ['process_type', '${DS_PROMETHEUS}'],
    ]);
  });

  it('names only fw series, and only their labels', () => {
    expect(exprs.length).toBeGreaterThan(10);
    const problems: string[] = [];
    for (const { where, expr } of exprs) {
      const { metrics, grouping, words } = referencesOf(expr);
      for (const word of words)
        if (!PROMQL_WORDS.has(word) && !series.has(word)) problems.push(`${where}: unknown series or word ${word}`);
      for (const { metric, labels } of metrics) {
        const known = series.get(metric);
        if (known === undefined) problems.push(`${where}: unknown series ${metric}`);
        for (const label of labels)
          if (known && !known.has(label)) problems.push(`${where}: ${metric} has no label ${label}`);
      }
      const read = metrics.map((m) => series.get(m.metric) ?? new Set<string>());
      for (const label of grouping)
        if (!read.some((labels) => labels.has(label)))
          problems.push(`${where}: groups by ${label}, a label of none of its series`);
    }
    expect(problems).toEqual([]);
  });

  it('shows every fw series and filters each panel by the tenant variable', () => {
    const named = new Set(
      exprs.flatMap(({ expr }) => referencesOf(expr).metrics.map((m) => m.metric.replace(/_(bucket|sum|count)$/, ''))),
    );
    const declared = new Set([...series.keys()].map((name) => name.replace(/_(bucket|sum|count)$/, '')));
    expect([...declared].filter((name) => !named.has(name))).toEqual([]);
    // Series without a tenant label (the declared limits: one number for every tenant) cannot be filtered by it.
    const tenantless = (expr: string) =>
      referencesOf(expr).metrics.every((m) => series.get(m.metric)?.has('tenant') === false);
    for (const { where, expr } of exprs.filter((e) => !e.where.startsWith('variable tenant') && !tenantless(e.expr)))
      expect({ where, filtered: expr.includes('tenant=~"$tenant"') }).toEqual({ where, filtered: true });
    expect(exprs.filter((e) => tenantless(e.expr)).map((e) => referencesOf(e.expr).metrics[0]?.metric)).toEqual([
      'fw_work_item_concurrency_limit',
      'fw_work_item_rate_limit_per_second',
    ]);
  });

  it('fails on a renamed series (the check itself)', () => {
    const { words } = referencesOf('sum by (status) (fw_work_item{tenant=~"$tenant"})');
    expect(words.filter((w) => !PROMQL_WORDS.has(w) && !series.has(w))).toEqual(['fw_work_item']);
  });
});
