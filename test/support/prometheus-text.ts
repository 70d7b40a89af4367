/** One sample of a Prometheus text exposition: name, labels and value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples and the declared metric families (`# TYPE name type`) of a /metrics answer. */
export interface Exposition {
  samples: Sample[];
  types: Map<string, string>;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parseExposition(text: string): Exposition {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)/.exec(line);
    if (type) types.set(type[1], type[2]);
    if (line.startsWith('#') || line.trim() === '') continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(LABEL)) labels[name] = value;
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return { samples, types };
}

/** The value of the one sample named `name` whose labels include `labels`; undefined when there is none. */
export function valueOf(exposition: Exposition, name: string, labels: Record<string, string> = {}): number | undefined {
  const found = exposition.samples.filter(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${found.length} samples`);
  return found[0]?.value;
}

/**
 * The names a PromQL expression reads, i.e. its metric selectors: what is left once strings, label matchers, range and
 * subquery brackets, grouping clauses and Grafana variables are taken out, minus function names and keywords.
 */
export function metricNamesIn(expression: string): string[] {
  const stripped = expression
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\$\w+|\$\{[^}]*\}/g, ' ');
  const keywords = new Set([
    'by',
    'without',
    'on',
    'ignoring',
    'group_left',
    'group_right',
    'bool',
    'and',
    'or',
    'unless',
    'offset',
    'inf',
    'nan',
  ]);
  const names = new Set<string>();
  for (const match of stripped.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const name = match[0];
    const after = stripped.slice((match.index ?? 0) + name.length);
    const before = stripped.slice(0, match.index ?? 0);
    // A function call, a keyword, or part of a number such as 1e-9.
    if (/^\s*\(/.test(after) || keywords.has(name.toLowerCase()) || /[0-9.]$/.test(before)) continue;
    names.add(name);
  }
  return [...names];
}

/** The metric family a series name belongs to: a histogram's _bucket/_sum/_count (and a counter's _total) resolved. */
export function familyOf(name: string, types: Map<string, string>): string | undefined {
  if (types.has(name)) return name;
  const histogram = /^(.*)_(bucket|sum|count)$/.exec(name);
  if (histogram && ['histogram', 'summary'].includes(types.get(histogram[1]) ?? '')) return histogram[1];
  return undefined;
}
