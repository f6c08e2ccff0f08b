// The release notes of a version: its changelog, history, release-notes and migration/upgrade guides, read from the
// published artifact and split into sections by heading. Docs search leaves these files out on purpose (they answer
// "what changed", not "how do I"), so they are fetched here, from the same registries, only when changes are asked.
import semver from 'semver';
import type { Ecosystem } from '../catalog/types.ts';
import type { Config } from '../config.ts';
import { textOf, type ArchiveFile } from '../docs/archive.ts';
import { marked } from 'marked';
import { stripInline } from '../docs/extract/markdown.ts';
import { rstToMarkdown } from '../docs/extract/rst.ts';
import { sourceFor } from '../docs/sources/index.ts';

export interface NoteSection {
  title: string;
  headings: string[];
  /** The release the section is about, read from its heading trail (`## 4.0.0`, `Version 2.0 (2023-01-02)`). */
  release: string | null;
  content: string;
  source: string;
  url: string;
}

/** Changelogs, history, release notes and migration or upgrade guides, by file name, anywhere but tests and vendored code. */
export const RELEASE_NOTES_FILE = /(^|\/)((changelog|changes|history|releases?|release[-_]?notes|news|whats[-_]?new)[-_\w]*|upgrad(e|ing)[^/]*|migrat(e|ion|ing)[^/]*)(\.(md|markdown|mdx|rst|txt))?$/i;
const SKIPPED_FOLDER = /(^|\/)(node_modules|tests?|__tests__|testdata|vendor|fixtures?|\.github)\//i;

export const isReleaseNotesFile = (path: string) => RELEASE_NOTES_FILE.test(path) && !SKIPPED_FOLDER.test(path);

/** A release number in a heading: `4.0.0`, `v2.1`, `1.4.0b1`, `2.0.0-beta.3` (not a date like 2024-01-02). */
const RELEASE_IN_HEADING = /(?:^|[\s[(v`"'/])v?(\d+\.\d+(?:\.\d+)?(?:[-.]?(?:alpha|beta|rc|a|b|dev|post)\.?\d*)?)(?=$|[\s\])`"',:;/]|\s*[-–—(])/i;

export function releaseOf(headings: string[]): string | null {
  for (const heading of [...headings].reverse()) {
    const match = RELEASE_IN_HEADING.exec(heading);
    if (match) return match[1]!;
  }
  return null;
}

/** Versions compared as semver where they parse, else by their numeric parts (PyPI's 2.0b1, Go's v1.2.3). */
export function compareReleases(a: string, b: string): number {
  const sa = semver.coerce(a, { includePrerelease: true });
  const sb = semver.coerce(b, { includePrerelease: true });
  if (sa && sb) {
    const order = semver.compare(sa, sb);
    if (order !== 0) return order;
  }
  const parts = (v: string) => v.replace(/^v/, '').split(/[^0-9]+/).filter(Boolean).map(Number);
  const [pa, pb] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d) return Math.sign(d);
  }
  return 0;
}

/** Sections of the notes that are about a release after `from`, up to `to`, and the guides that carry no release number. */
export function sectionsInRange(sections: NoteSection[], from: string, to: string): NoteSection[] {
  return sections.filter((section) => {
    if (!section.release) return /upgrad|migrat/i.test(section.source); // a migration guide is about the range as a whole
    return compareReleases(section.release, from) > 0 && compareReleases(section.release, to) <= 0;
  });
}

/**
 * A notes file as sections, one per heading, with the heading trail above it, read with a CommonMark lexer (marked):
 * changelog entries are often one line long, so nothing is merged or dropped for being short.
 */
export function noteSections(files: ArchiveFile[], fileUrl: (path: string, line?: number) => string): NoteSection[] {
  const sections: NoteSection[] = [];
  for (const file of files) {
    const text = textOf(file);
    const markdown = /\.rst$/i.test(file.path) ? rstToMarkdown(text) : text;
    const trail: { depth: number; text: string }[] = [];
    let current: { headings: string[]; line: number; body: string[] } | undefined;
    let line = 1;
    const close = () => {
      const content = current?.body.join('').trim();
      if (current && content) {
        sections.push({
          title: current.headings[current.headings.length - 1] ?? file.path, headings: current.headings, release: releaseOf(current.headings),
          content, source: file.path, url: fileUrl(file.path, current.line),
        });
      }
    };
    for (const token of marked.lexer(markdown)) {
      if (token.type === 'heading') {
        close();
        while (trail.length && trail[trail.length - 1]!.depth >= token.depth) trail.pop();
        trail.push({ depth: token.depth, text: stripInline(token.text) });
        current = { headings: trail.map((h) => h.text), line, body: [] };
      } else {
        current ??= { headings: [], line, body: [] };
        current.body.push(token.raw);
      }
      line += (token.raw.match(/\n/g) ?? []).length;
    }
    close();
  }
  return sections;
}

export interface ReleaseNotes { files: ArchiveFile[]; fileUrl(path: string, line?: number): string }

/**
 * Downloads a version's artifact through the docs' registry source, keeping only its release-notes files (the same
 * download, URLs and limits as docs search, without rebuilding registry URLs here). RubyGems' notes are not read (yet).
 */
export async function fetchReleaseNotes(config: Config, ecosystem: Ecosystem, name: string, version: string): Promise<ReleaseNotes> {
  if (ecosystem === 'rubygems') return { files: [], fileUrl: (path) => path };
  const artifact = await sourceFor(config, ecosystem).artifact(name, version, { keep: isReleaseNotesFile });
  return { files: artifact.files, fileUrl: (path, line) => artifact.fileUrl(path, line ? { line } : undefined) };
}
