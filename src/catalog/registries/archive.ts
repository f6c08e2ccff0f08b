// Reads a few named text files out of a published archive (.crate tar.gz, Go module zip) in memory,
// with caps on entry count and entry size. Nothing from the archive is written to disk or executed.
import { Parser, type ReadEntry } from 'tar';
import { unzipSync } from 'fflate';
import { Readable } from 'node:stream';
import { ToolDexError } from '../../errors.ts';
import { headOf } from '../../text-cut.ts';

const MAX_ENTRY_BYTES = 2 * 1024 * 1024;

/** Text of the tar.gz entries whose path `want` accepts (paths as stored, e.g. `serde-1.0.0/Cargo.toml`). */
export async function readTarGzTexts(bytes: Uint8Array, want: (path: string) => boolean, maxEntries = 20_000): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  let entries = 0;
  await new Promise<void>((resolve, reject) => {
    const parser = new Parser({
      onReadEntry: (entry: ReadEntry) => {
        if (++entries > maxEntries) {
          parser.abort(new ToolDexError('archive_rejected', 502, `archive has more than ${maxEntries} entries`));
          return;
        }
        if (entry.type !== 'File' || !want(entry.path) || (entry.size ?? 0) > MAX_ENTRY_BYTES) {
          entry.resume();
          return;
        }
        const chunks: Buffer[] = [];
        entry.on('data', (chunk: Buffer) => chunks.push(chunk));
        entry.on('end', () => found.set(entry.path, Buffer.concat(chunks).toString('utf8')));
      },
    });
    parser.on('end', resolve);
    parser.on('abort', reject);
    parser.on('error', reject);
    Readable.from([Buffer.from(bytes)]).pipe(parser);
  });
  return found;
}

/** Text of the zip entries whose path `want` accepts. */
export function readZipTexts(bytes: Uint8Array, want: (path: string) => boolean, maxEntries = 50_000): Map<string, string> {
  let entries = 0;
  const files = unzipSync(bytes, {
    filter: (file) => {
      if (++entries > maxEntries) throw new ToolDexError('archive_rejected', 502, `archive has more than ${maxEntries} entries`);
      return want(file.name) && file.originalSize <= MAX_ENTRY_BYTES;
    },
  });
  return new Map(Object.entries(files).map(([name, data]) => [name, new TextDecoder().decode(data)]));
}

/** The first prose paragraph of a README (skipping title, badges, HTML and code). */
export function readmeSummary(readme: string): string {
  const paragraphs = readme
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/```[\s\S]*?```/g, '')
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter((block) => block && !/^(#|=|>|\[!\[|!\[|<|\||-{3,}|\* \[|\[.*\]: )/.test(block))
    .map((block) => block.replace(/^.*\n[=-]{3,}\s*(\n|$)/, '').trim()) // drop a setext heading
    .filter(Boolean);
  const paragraph = paragraphs.find((block) => /[a-z]{3,}.*\s.*[a-z]{3,}/i.test(block)) ?? '';
  return headOf(paragraph.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[*_`]/g, '').replace(/\s+/g, ' ').trim(), 400);
}

/** The first paragraph of a Go package doc comment ("// Package chi is a lightweight router…"), as one line. */
export function goPackageDoc(source: string): string | undefined {
  const lineComment = source.match(/((?:^\/\/.*\n)+)package\s+\w+/m)?.[1]?.replace(/^\/\/ ?/gm, '');
  const blockComment = source.match(/\/\*([\s\S]*?)\*\/\s*package\s+\w+/)?.[1];
  const firstParagraph = (lineComment ?? blockComment)?.trim().split(/\n\s*\n/)[0];
  const text = firstParagraph?.replace(/\s+/g, ' ').trim();
  return text && /^Package\s/.test(text) ? headOf(text, 400) : undefined;
}

/** An SPDX id for the common licence texts (Go modules carry a LICENSE file, not a licence field). */
export function licenseFromText(text: string): string | null {
  const head = text.slice(0, 3000);
  if (/Apache License,?\s+Version 2\.0/i.test(head)) return 'Apache-2.0';
  if (/Permission is hereby granted, free of charge/i.test(head)) return 'MIT';
  if (/Mozilla Public License,? (version|v\.?)\s*2\.0/i.test(head)) return 'MPL-2.0';
  if (/GNU LESSER GENERAL PUBLIC LICENSE/i.test(head)) return 'LGPL';
  if (/GNU GENERAL PUBLIC LICENSE\s+Version 3/i.test(head)) return 'GPL-3.0';
  if (/GNU GENERAL PUBLIC LICENSE\s+Version 2/i.test(head)) return 'GPL-2.0';
  if (/Redistribution and use in source and binary forms/i.test(head)) {
    return /Neither the name/i.test(head) ? 'BSD-3-Clause' : 'BSD-2-Clause';
  }
  if (/ISC License|Permission to use, copy, modify, and\/or distribute/i.test(head)) return 'ISC';
  if (/This is free and unencumbered software released into the public domain/i.test(head)) return 'Unlicense';
  return null;
}

/** The opening prose of a README (badges, HTML, code and headings removed), for search text. */
export function readmeExcerpt(readme: string, maxChars = 1200): string {
  return headOf(readme
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/^\s*(\.\. |:\w+:|\|).*$/gm, ' ') // reStructuredText directives and substitutions
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, ' ')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/^[#=*\-_>|~`]+/gm, ' ')
    .replace(/[*_`#|]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim(), maxChars);
}
