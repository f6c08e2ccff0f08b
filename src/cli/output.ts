// Human renderers of the CLI (aligned columns, short text, colour only on a colour terminal) and the one
// place results reach stdout: json/toon through src/format.ts, human through the renderers below.
import type { WriteStream } from 'node:tty';
import type { ToolResult } from '../catalog/index.ts';
import { isSymbolResult, type DocsPassage, type DocsResult, type DocsSymbolResult, type ToolContext } from '../docs/schema.ts';
import { encodeResult } from '../format.ts';
import type { ChangesResult } from '../changes/index.ts';
import type { ResolveResult } from '../project/index.ts';
import type { TestResult } from '../sandbox/schema.ts';
import type { OutputFormat } from './options.ts';
import { fitPassage, shortenUrl } from './wrap.ts';

export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  green(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  width: number;
}

/** Colour only on a terminal that has it: hasColors() honours NO_COLOR, FORCE_COLOR and TERM=dumb. */
export function styleFor(stream: NodeJS.WriteStream): Style {
  const tty = stream as Partial<WriteStream>;
  const on = Boolean(stream.isTTY) && typeof tty.hasColors === 'function' && tty.hasColors();
  const paint = (open: number, close: number) => (text: string) => (on ? `\x1b[${open}m${text}\x1b[${close}m` : text);
  return {
    bold: paint(1, 22), dim: paint(2, 22), green: paint(32, 39), red: paint(31, 39), yellow: paint(33, 39), cyan: paint(36, 39),
    width: Math.max(60, Math.min(tty.columns ?? 100, 160)),
  };
}

/** Human output renders the whole result; json/toon carry `project(result)` (the compact projection by default). */
export function writeResult<T>(result: T, format: OutputFormat, human: (result: T, style: Style) => string,
  project: (result: T) => unknown = (whole) => whole): void {
  const text = format === 'human' ? human(result, styleFor(process.stdout)) : encodeResult(project(result), format).body;
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

// Registry text is untrusted: escape sequences in a description must not drive the user's terminal.
const clean = (text: string | null | undefined) => (text ?? '').replace(/[\x00-\x08\x0b-\x1f\x7f\x9b]/g, '');
const oneLine = (text: string | null | undefined) => clean(text).replace(/\s+/g, ' ').trim();
const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, Math.max(1, max - 1))}…`);
const pad = (text: string, width: number) => text + ' '.repeat(Math.max(0, width - text.length));
const indent = (text: string, by = '  ') => text.split('\n').map((line) => (line ? by + line : line)).join('\n');

function table(headers: string[], rows: string[][], style: Style): string {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => (row[i] ?? '').length)));
  // The last column takes what the terminal has left.
  const fixed = widths.slice(0, -1).reduce((sum, w) => sum + w + 2, 0);
  const last = Math.max(20, style.width - fixed);
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === cells.length - 1 ? cut(cell, last) : pad(cell, widths[i] ?? 0))).join('  ').trimEnd();
  return [style.bold(line(headers)), ...rows.map(line)].join('\n');
}

export function renderSearch(result: { results: ToolResult[] }, style: Style): string {
  if (result.results.length === 0) return style.dim('No tools found; try other words or drop --language/--ecosystem.');
  const rows = result.results.map((tool) => [
    oneLine(tool.slug), oneLine(tool.version ?? '-'), tool.popularity.toFixed(2), oneLine(tool.shortDescription || tool.description),
  ]);
  const first = result.results[0]!.slug;
  return `${table(['SLUG', 'VERSION', 'POP', 'DESCRIPTION'], rows, style)}\n${style.dim(`next: tooldex context ${first}`)}`;
}

export function renderContext(context: ToolContext, style: Style): string {
  const lines = [
    `${style.bold(oneLine(context.name))} ${oneLine(context.version)} ${style.dim(`(${context.ecosystem})`)}` +
      `${context.license ? `  ${oneLine(context.license)}` : ''}${context.stale ? `  ${style.yellow(`latest is ${context.latestVersion}`)}` : ''}`,
    oneLine(context.description),
    ...(context.newerMajor ? [style.yellow(oneLine(context.newerMajor))] : []),
    '',
  ];
  const field = (label: string, values: string[]) => {
    values.forEach((value, i) => lines.push(`${pad(i === 0 ? label : '', 10)}${oneLine(value)}`));
  };
  field('install', context.install.map((item) => item.command));
  field('import', context.imports);
  field('docs', context.links.docs ? [context.links.docs] : []);
  field('repo', context.links.repository ? [context.links.repository] : []);
  field('registry', [context.links.registry]);
  if (context.typesIncluded !== null) field('types', [context.typesIncluded ? 'included' : 'not included']);
  field('requires', Object.entries(context.requirements).map(([name, range]) => `${name} ${range}`));
  field('entry', context.entryPoints.slice(0, 5));
  if (context.quickstart) {
    lines.push('', style.bold(`quickstart (${oneLine(context.quickstart.source) || 'none in the docs'})`));
    if (context.quickstart.verified) lines.push(verifiedLine(context.name, context.quickstart.verified, style));
    if (context.quickstart.code) lines.push(indent(clean(context.quickstart.code).trimEnd()));
  }
  if (context.pointers?.length) {
    lines.push('');
    field('left out', context.pointers.map((pointer) => `${pointer.title} ${pointer.url}`));
  }
  if (context.budget) lines.push(style.dim(`about ${context.budget.usedTokens} of ${context.budget.maxTokens} tokens`));
  lines.push('', style.dim(`next: tooldex docs ${context.slug} "<your question>"`));
  return lines.join('\n');
}

/** One line on whether tooldex ran the quickstart: "✓ ran on zod 3.25.76, printed …" (src/quickstart owns the shape). */
function verifiedLine(name: string, verified: NonNullable<NonNullable<ToolContext['quickstart']>['verified']>, style: Style): string {
  const printed = cut(oneLine(verified.stdout), 60);
  switch (verified.status) {
    case 'ran': return style.green(`✓ ran on ${oneLine(name)} ${oneLine(verified.version)}${verified.runtime ? ` (${oneLine(verified.runtime)})` : ''}, printed ${printed}`)
      + (verified.note ? `\n${style.dim(cut(oneLine(verified.note), 200))}` : '');
    case 'pending': return style.yellow(`… not verified yet: ${cut(oneLine(verified.reason), 120)}`);
    case 'failed': return style.red(`✗ unverified (every example failed in the sandbox): ${cut(oneLine(verified.reason), 160)}`);
    case 'unverifiable': return style.yellow(`– unverified: ${cut(oneLine(verified.reason), 160)}`);
  }
}

export function renderDocs(result: DocsResult | DocsSymbolResult, style: Style): string {
  const PASSAGE_LINES = 14; // per passage on a terminal; json/toon carry each passage whole
  const version = `${oneLine(result.slug)} ${oneLine(result.version)}`;
  const latest = result.stale ? `  latest is ${result.latestVersion}` : '';
  const docsUrl = result.docsUrl ? shortenUrl(oneLine(result.docsUrl), Math.max(20, style.width - version.length - latest.length - 1)) : '';
  // Ranked by words alone (encoder off, failed or busy): said on its own line, so the reader weighs the order.
  const ranking = 'ranking' in result && result.ranking === 'lexical' ? `\n${style.dim('ranked by words only (the sentence encoder was off or busy)')}` : '';
  const head = `${style.bold(version)} ${style.dim(docsUrl)}${latest ? style.yellow(latest) : ''}${ranking}`;
  if (isSymbolResult(result)) return `${head}\n\n${renderSymbol(result, style)}`;
  if (result.results.length === 0 && !result.pointers?.length) return `${head}\n${style.dim('No passage matched; ask with other words.')}`;
  // Everything is fitted to the terminal here, so the terminal never wraps a line in the middle of a word.
  const inner = style.width - 3;
  const passages = result.results.map((passage, i) => {
    const trail = passage.headings?.length ? passage.headings.join(' › ') : (passage.title ?? '');
    const lines = fitPassage(clean(passage.content).trim(), inner);
    const kept = lines.slice(0, PASSAGE_LINES);
    // A passage cut inside a code block closes it, so the next passage's prose is not read as code (or its code as prose).
    const openFence = kept.filter((line) => /^(```|~~~)/.test(line)).length % 2 === 1;
    const shown = lines.length > PASSAGE_LINES + 1
      ? [...kept, ...(openFence ? ['```'] : []), style.dim(`… ${lines.length - PASSAGE_LINES} more lines (--json for the whole passage)`)]
      : lines;
    const labels = passageLabels(passage, inner, style);
    // Guide ↔ API links: the items a section uses, or where the guides show an item in use.
    const links = (passage.links ?? []).map((link) => style.dim(cut(`${link.relation === 'uses' ? 'uses' : 'shown in'} ${oneLine(link.title)}`, inner)));
    return `${style.cyan(`${i + 1}.`)} ${style.bold(cut(oneLine(trail), inner))}\n${labels ? `   ${labels}\n` : ''}${links.map((line) => `   ${line}\n`).join('')}` +
      `   ${style.dim(shortenUrl(oneLine(passage.url), inner))}\n` +
      shown.map((line) => (line ? `   ${line}` : '')).join('\n');
  });
  const pointers = (result.pointers ?? []).map((pointer, i) =>
    `${style.cyan(`${result.results.length + i + 1}.`)} ${cut(oneLine(pointer.title), inner)}\n   ${style.dim(shortenUrl(oneLine(pointer.url), inner))}`);
  const budget = result.budget ? [style.dim(`about ${result.budget.usedTokens} of ${result.budget.maxTokens} tokens`)] : [];
  return [head, ...passages, ...pointers, ...budget].join('\n\n');
}

/** One API item (signature, documentation, examples, where it is defined), or the closest names to what was asked. */
function renderSymbol(result: DocsSymbolResult, style: Style): string {
  const inner = style.width - 3;
  const names = (title: string) => [style.bold(title), ...result.suggestions.map((s) => `   ${oneLine(s.symbol)}  ${style.dim(shortenUrl(oneLine(s.url), inner))}`)].join('\n');
  if (!result.found || !result.item) return `${style.yellow(oneLine(result.message ?? `No API item named ${result.symbol}.`))}${result.suggestions.length ? `\n\n${names('closest names')}` : ''}`;
  const item = result.item;
  const labels = passageLabels({ ...item, content: '' }, inner, style);
  const block = (text: string) => fitPassage(clean(text).trim(), inner).map((line) => (line ? `   ${line}` : '')).join('\n');
  const parts = [
    `${style.bold(oneLine(item.symbol))}${labels ? `\n   ${labels}` : ''}\n   ${style.dim(shortenUrl(oneLine(item.url), inner))}`,
    ...(item.signature ? [block(item.signature)] : []),
    ...(item.documentation ? [block(item.documentation)] : []),
    ...item.examples.map((example, i) => `${style.bold(`example ${i + 1}`)} ${style.dim(shortenUrl(oneLine(example.url), inner - 10))}\n${block(example.code)}`),
  ];
  if (result.suggestions.length) parts.push(names('also named so'));
  return parts.join('\n\n');
}

/** "symbol tokio::time::timeout  deprecated internal" within `width`, or '' when the passage carries none of them:
 * tells public API from internals and from what its authors retired. */
function passageLabels(passage: DocsPassage, width: number, style: Style): string {
  const tags = [passage.deprecated ? 'deprecated' : '', passage.internal ? 'internal' : '', ...(passage.flags ?? [])].filter(Boolean);
  const tagsWidth = tags.length ? tags.join(' ').length + 2 : 0;
  // The tags are never cut: the symbol gives way to them.
  const name = oneLine(passage.symbol);
  const symbol = name ? style.dim(cut(`symbol ${name}`, width - tagsWidth)) : '';
  return [symbol, tags.map(style.yellow).join(' ')].filter(Boolean).join('  ');
}

export function renderTest(result: TestResult, style: Style): string {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const mark = result.ok ? style.green('✓ ran') : style.red(`✗ ${result.status}`);
  const lines = [
    `${mark}  ${style.dim(`provision ${seconds(result.phases.provisionMs)} · install ${seconds(result.phases.installMs)} · run ${seconds(result.phases.runMs)}`)}` +
      `${result.exitCode === null ? '' : `  exit ${result.exitCode}`}`,
  ];
  if (result.error) lines.push(style.red(`${result.error.code}: ${oneLine(result.error.message)}`));
  if (result.stdout) lines.push(style.dim('── stdout ──'), clean(result.stdout).trimEnd());
  if (result.stderr) lines.push(style.dim('── stderr ──'), clean(result.stderr).trimEnd());
  lines.push(`${style.dim('session')}  ${result.sessionId}${result.sessionReused ? style.dim(' (reused)') : ''}` +
    `  ${style.dim(`reuse with --session ${result.sessionId}`)}`);
  return lines.join('\n');
}

export function renderResolve(result: ResolveResult, style: Style): string {
  const rows = result.dependencies.map((d) => [
    oneLine(d.slug), oneLine(d.version ?? d.requested ?? '-'), oneLine(d.latest ?? '-'), d.docsIndexed ? 'indexed' : '-', d.dev ? 'dev' : '',
  ]);
  const files = result.files.map((f) => `${oneLine(f.file)} (${oneLine(f.format)})`).join(', ');
  const lines = [
    `${style.bold(result.project)}  ${style.dim(`${result.counts.direct} direct, ${result.counts.transitive} transitive; kept until ${result.expiresAt}`)}`,
    style.dim(`from ${files}`),
    '',
    rows.length ? table(['SLUG', 'VERSION', 'LATEST', 'DOCS', ''], rows, style) : style.dim('No direct dependencies found.'),
    ...result.notes.map((note) => style.yellow(`note: ${oneLine(note)}`)),
  ];
  const first = result.dependencies.find((d) => d.version);
  if (first) lines.push(style.dim(`next: tooldex docs ${first.slug} "<your question>" --project ${result.project}`));
  return lines.join('\n');
}

export function renderChanges(result: ChangesResult, style: Style): string {
  const { counts } = result;
  const lines = [
    `${style.bold(oneLine(result.name))} ${oneLine(result.from.version)} → ${oneLine(result.to.version)} ${style.dim(`(${result.ecosystem})`)}`,
    style.dim(`${counts.removed} removed, ${counts.moved} moved, ${counts.signature} changed, ${counts.deprecated} deprecated, ${counts.added} added, ${counts.unchanged} unchanged; ${counts.notes} release-note sections`),
  ];
  const change = (c: ChangesResult['removed'][number]) => {
    const side = c.to ?? c.from;
    return `  ${c.kind === 'removed' ? style.red('-') : c.kind === 'added' ? style.green('+') : style.yellow('~')} ${oneLine(c.symbol)}${c.movedFrom ? style.dim(` (was ${oneLine(c.movedFrom)})`) : ''}${side ? style.dim(`  ${shortenUrl(side.url, 70)}`) : ''}`;
  };
  if (result.answers?.length) {
    lines.push('', style.bold(`for "${oneLine(result.query)}"`));
    for (const answer of result.answers) {
      lines.push(answer.kind === 'change' ? change(answer.change) : `  ${style.cyan('note')} ${oneLine(answer.note.headings.join(' › '))}${style.dim(`  ${shortenUrl(answer.note.url, 70)}`)}`);
    }
  }
  for (const [label, list] of [['removed', result.removed], ['moved', result.moved], ['signature changed', result.signature], ['deprecated', result.deprecated], ['added', result.added]] as const) {
    if (list.length) lines.push('', style.bold(label), ...list.map(change));
  }
  if (result.notes.length) {
    lines.push('', style.bold('release notes'));
    for (const note of result.notes.slice(0, 5)) lines.push(`  ${oneLine(note.headings.join(' › '))}${style.dim(`  ${shortenUrl(note.url, 70)}`)}`, indent(fitPassage(clean(note.content), style.width - 4).slice(0, 8).join('\n'), '    '));
  }
  const left = Object.entries(result.omitted ?? {}).map(([list, n]) => `${n} ${list}`).join(', ');
  if (left) lines.push('', style.dim(`left out by the ${result.budget.maxTokens}-token budget: ${left} (raise --max-tokens)`));
  for (const warning of result.warnings) lines.push(style.yellow(`note: ${oneLine(warning)}`));
  return lines.join('\n');
}
