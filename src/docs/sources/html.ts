// htmlToMarkdown: one documentation page as Markdown (main content only, via node-html-markdown),
// plus its title, its headings' own anchors and its same-page links for the crawler.
import { NodeHtmlMarkdown } from 'node-html-markdown';
import { stripInline } from '../extract/markdown.ts';

export interface HtmlPage {
  title: string;
  markdown: string;
  anchors: Map<string, string>;
  links: string[];
}

const converter = new NodeHtmlMarkdown({ codeFence: '```', bulletMarker: '-', maxConsecutiveNewlines: 2 });

function decodeEntities(text: string): string {
  return text.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;|&apos;/g, "'").replace(/&nbsp;/g, ' ');
}

/** The page's main content: <main> or <article> when it has one, else <body>, without chrome. */
function mainContent(html: string): string {
  const pick = /<main\b[^>]*>([\s\S]*?)<\/main>/i.exec(html) ?? /<article\b[^>]*>([\s\S]*?)<\/article>/i.exec(html)
    ?? /<body\b[^>]*>([\s\S]*?)<\/body>/i.exec(html);
  return (pick?.[1] ?? html)
    .replace(/<(script|style|noscript|template|svg|nav|header|footer|aside|form|iframe)\b[\s\S]*?<\/\1>/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '');
}

export function htmlToMarkdown(html: string, pageUrl: string): HtmlPage {
  const title = decodeEntities(stripInline(/<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? '')).split(/\s[|–—-]\s/)[0]?.trim() || pageUrl;
  const content = mainContent(html);
  const anchors = new Map<string, string>();
  for (const match of content.matchAll(/<h[1-6]\b[^>]*\bid=["']([^"']+)["'][^>]*>([\s\S]*?)<\/h[1-6]>/gi)) {
    anchors.set(decodeEntities(stripInline(match[2] ?? '')).replace(/\s+/g, ' ').trim(), match[1]!);
  }
  const links: string[] = [];
  for (const match of html.matchAll(/<a\b[^>]*\bhref=["']([^"'#][^"']*)["']/gi)) {
    try {
      links.push(new URL(decodeEntities(match[1]!), pageUrl).toString());
    } catch { /* not a URL */ }
  }
  const markdown = converter.translate(content).replace(/\[¶\]\([^)]*\)|\[#\]\([^)]*\)/g, '');
  return { title, markdown, anchors, links };
}
