// crawlSite: the documentation site named by docsUrl — llms-full.txt / llms.txt when present, else sitemap.xml,
// else a same-origin crawl under the docs path — honouring robots.txt, with page, size, depth and time caps.
import dns from 'node:dns/promises';
import net from 'node:net';
import { ToolDexError } from '../../errors.ts';
import { chunkByHeadings } from '../extract/markdown.ts';
import type { PassageDraft } from '../extract/types.ts';
import { htmlToMarkdown } from './html.ts';
import { parseRobots, type RobotsRule } from './robots.ts';

export interface CrawlOptions {
  timeoutMs: number;
  maxPages: number;
  maxPageBytes: number;
  allowPrivate: boolean;
  maxDepth?: number;
  /** Wall-clock budget of the whole crawl. */
  budgetMs?: number;
}

export interface CrawlResult {
  via: 'none' | 'llms-full.txt' | 'llms.txt' | 'sitemap.xml' | 'crawl';
  pages: number;
  passages: PassageDraft[];
  skipped: Array<{ url: string; reason: string }>;
}

/** Hosts whose pages are not a tool's own documentation site (the artifact already has that text). */
const NOT_DOCS_SITES = /(^|\.)(github\.com|gitlab\.com|bitbucket\.org|npmjs\.com|npmjs\.org|pypi\.org|crates\.io|docs\.rs|pkg\.go\.dev|rubygems\.org|rubydoc\.info|unpkg\.com|jsdelivr\.net)$/i;

export function isPrivateAddress(address: string): boolean {
  if (net.isIPv4(address)) {
    const [a = 0, b = 0] = address.split('.').map(Number);
    return a === 10 || a === 127 || a === 0 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)
      || (a === 169 && b === 254) || (a === 100 && b >= 64 && b <= 127) || a >= 224;
  }
  const lower = address.toLowerCase();
  if (lower.startsWith('::ffff:')) return isPrivateAddress(lower.slice(7));
  return lower === '::1' || lower === '::' || /^f[cd]/.test(lower) || /^fe[89ab]/.test(lower);
}

async function assertAllowedHost(url: URL, allowPrivate: boolean): Promise<void> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ToolDexError('site_refused', 422, `${url.protocol} URLs are not crawled.`);
  if (allowPrivate) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = net.isIP(host) ? [host] : (await dns.lookup(host, { all: true })).map((a) => a.address);
  if (addresses.some(isPrivateAddress)) {
    throw new ToolDexError('site_refused', 422, `${url.host} resolves to a private address; set TOOLDEX_DOCS_PRIVATE_SITES=allow to crawl it.`);
  }
}

interface Page { url: string; contentType: string; text: string }

export async function crawlSite(docsUrl: string, options: CrawlOptions): Promise<CrawlResult> {
  const result: CrawlResult = { via: 'none', pages: 0, passages: [], skipped: [] };
  let start: URL;
  try { start = new URL(docsUrl); } catch { return result; }
  if (NOT_DOCS_SITES.test(start.hostname) || options.maxPages === 0) return result;
  await assertAllowedHost(start, options.allowPrivate);
  const deadline = Date.now() + (options.budgetMs ?? 60_000);
  const origin = start.origin;
  const scope = start.pathname.endsWith('/') ? start.pathname : start.pathname.slice(0, start.pathname.lastIndexOf('/') + 1);
  let robots: RobotsRule = () => true;
  const robotsPage = await fetchPage(`${origin}/robots.txt`).catch(() => undefined);
  if (robotsPage && !/html/.test(robotsPage.contentType)) robots = parseRobots(robotsPage.text);

  async function fetchPage(href: string): Promise<Page | undefined> {
    let url = new URL(href);
    for (let hop = 0; hop < 5; hop++) {
      if (url.origin !== origin) { result.skipped.push({ url: url.toString(), reason: 'other_origin' }); return undefined; }
      if (!url.pathname.endsWith('robots.txt') && !robots(url.pathname)) { result.skipped.push({ url: url.toString(), reason: 'robots' }); return undefined; }
      const remaining = deadline - Date.now();
      if (remaining <= 0) { result.skipped.push({ url: url.toString(), reason: 'time_budget' }); return undefined; }
      const response = await fetch(url, {
        redirect: 'manual', signal: AbortSignal.timeout(Math.min(options.timeoutMs, remaining)),
        headers: { 'user-agent': 'tooldex-docs/0.1', accept: 'text/markdown, text/html;q=0.9, text/plain;q=0.8, */*;q=0.1' },
      });
      if (response.status >= 300 && response.status < 400 && response.headers.get('location')) {
        await response.body?.cancel();
        url = new URL(response.headers.get('location')!, url);
        continue;
      }
      if (!response.ok) { await response.body?.cancel(); return undefined; }
      const declared = Number(response.headers.get('content-length') ?? NaN);
      if (declared > options.maxPageBytes) {
        await response.body?.cancel();
        result.skipped.push({ url: url.toString(), reason: 'too_large' });
        return undefined;
      }
      const chunks: Uint8Array[] = [];
      let size = 0;
      for await (const chunk of response.body ?? []) {
        size += chunk.byteLength;
        if (size > options.maxPageBytes) {
          await response.body?.cancel().catch(() => undefined);
          result.skipped.push({ url: url.toString(), reason: 'too_large' });
          return undefined;
        }
        chunks.push(chunk);
      }
      return { url: url.toString(), contentType: response.headers.get('content-type') ?? '', text: Buffer.concat(chunks).toString('utf8') };
    }
    return undefined;
  }

  const safeFetch = (href: string) => fetchPage(href).catch((error: Error) => {
    result.skipped.push({ url: href, reason: error.name === 'TimeoutError' ? 'timeout' : 'unreachable' });
    return undefined;
  });
  const isText = (page: Page) => !/html/.test(page.contentType) && !/^\s*<(!doctype|html)/i.test(page.text);
  const addPage = (page: Page) => {
    result.pages++;
    if (isText(page)) {
      const pageTitle = /^#\s+(.+)$/m.exec(page.text)?.[1]?.trim() ?? new URL(page.url).pathname;
      result.passages.push(...chunkByHeadings(page.text, { pageTitle, source: page.url, locate: ({ anchor }) => `${page.url}${anchor ? `#${anchor}` : ''}` }));
      return [];
    }
    const html = htmlToMarkdown(page.text, page.url);
    result.passages.push(...chunkByHeadings(html.markdown, {
      pageTitle: html.title, source: page.url, anchorFor: (heading) => html.anchors.get(heading),
      locate: ({ anchor }) => `${page.url.split('#')[0]}${anchor ? `#${anchor}` : ''}`,
    }));
    return html.links;
  };
  const inScope = (href: string) => {
    try {
      const url = new URL(href);
      return url.origin === origin && url.pathname.startsWith(scope) && !/\.(png|jpe?g|gif|svg|ico|css|js|json|zip|gz|pdf|woff2?|ttf|mp4|webp)$/i.test(url.pathname);
    } catch { return false; }
  };

  for (const candidate of new Set([`${origin}${scope}llms-full.txt`, `${origin}/llms-full.txt`])) {
    const page = await safeFetch(candidate);
    if (page && isText(page)) {
      result.via = 'llms-full.txt';
      addPage(page);
      return result;
    }
  }
  for (const candidate of new Set([`${origin}${scope}llms.txt`, `${origin}/llms.txt`])) {
    const page = await safeFetch(candidate);
    if (page && isText(page)) {
      result.via = 'llms.txt';
      const links = [...page.text.matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => new URL(m[1]!, page.url).toString());
      await fetchAll([...new Set(links)].filter((l) => new URL(l).origin === origin));
      return result;
    }
  }
  const sitemap = await safeFetch(`${origin}/sitemap.xml`);
  if (sitemap && /<(urlset|sitemapindex)\b/.test(sitemap.text)) {
    result.via = 'sitemap.xml';
    let locs = [...sitemap.text.matchAll(/<loc>\s*([^<\s]+)\s*<\/loc>/g)].map((m) => m[1]!);
    if (/<sitemapindex\b/.test(sitemap.text)) {
      const nested = await Promise.all(locs.slice(0, 5).map((loc) => safeFetch(loc)));
      locs = nested.flatMap((page) => [...(page?.text ?? '').matchAll(/<loc>\s*([^<\s]+)\s*<\/loc>/g)].map((m) => m[1]!));
    }
    await fetchAll(locs.filter(inScope));
    return result;
  }
  result.via = 'crawl';
  const seen = new Set<string>([start.toString().split('#')[0]!]);
  let frontier = [start.toString().split('#')[0]!];
  for (let depth = 0; depth <= (options.maxDepth ?? 3) && frontier.length && result.pages < options.maxPages; depth++) {
    const next: string[] = [];
    for (const href of frontier) {
      if (result.pages >= options.maxPages || Date.now() > deadline) break;
      const page = await safeFetch(href);
      if (!page) continue;
      for (const link of addPage(page)) {
        const clean = link.split('#')[0]!;
        if (!seen.has(clean) && inScope(clean)) { seen.add(clean); next.push(clean); }
      }
    }
    frontier = next;
  }
  return result;

  async function fetchAll(urls: string[]): Promise<void> {
    for (const href of urls.slice(0, options.maxPages)) {
      if (Date.now() > deadline) break;
      const page = await safeFetch(href);
      if (page) addPage(page);
    }
  }
}
