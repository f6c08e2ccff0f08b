// Where a snippet's files may go: relative paths inside the workspace only, written without ever following
// a symlink an earlier run may have planted (the host side writes as root, so this is a security boundary).
import fs from 'node:fs';
import path from 'node:path';
import { invalidInput } from '../errors.ts';

const CONTROL = /[\u0000-\u001f\u007f]/;

/** Normalises a request path to NFC segments; refuses absolute paths, `..`, `.`-only segments and control characters. */
export function safeRelativePath(raw: string): string[] {
  const value = raw.normalize('NFC');
  if (CONTROL.test(value)) throw invalidInput('invalid_path', `File path "${printable(raw)}" contains control characters.`, { field: 'files' });
  if (value.startsWith('/') || value.startsWith('\\')) {
    throw invalidInput('invalid_path', `File path "${printable(raw)}" is absolute; give a path relative to the workspace.`, { field: 'files' });
  }
  const segments = value.split('/');
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..' || Buffer.byteLength(segment) > 255) {
      throw invalidInput('invalid_path', `File path "${printable(raw)}" has an empty, "." or ".." segment or an over-long name.`, { field: 'files' });
    }
  }
  if (segments[0] === '.tooldex') {
    throw invalidInput('invalid_path', 'Paths under .tooldex/ are reserved for the sandbox.', { field: 'files' });
  }
  return segments;
}

const printable = (value: string) => value.replace(CONTROL, '?').slice(0, 80);

/**
 * Writes content at root/segments: each folder on the way is created or must be a real folder (never a symlink),
 * and the file is opened with O_NOFOLLOW, so a planted link can redirect nothing. Ownership goes to the sandbox uid.
 */
export function writeWorkspaceFile(root: string, segments: string[], content: string, owner: { uid: number; gid: number }): void {
  let dir = root;
  for (const segment of segments.slice(0, -1)) {
    dir = path.join(dir, segment);
    let stat: fs.Stats | undefined;
    try {
      stat = fs.lstatSync(dir);
    } catch {
      fs.mkdirSync(dir, { mode: 0o755 });
      fs.chownSync(dir, owner.uid, owner.gid);
      continue;
    }
    if (!stat.isDirectory()) {
      throw invalidInput('invalid_path', `"${segments.join('/')}" goes through "${segment}", which is not a folder in the workspace.`, { field: 'files' });
    }
  }
  const file = path.join(dir, segments[segments.length - 1] ?? '');
  const existing = lstatOrUndefined(file);
  if (existing && !existing.isFile()) {
    throw invalidInput('invalid_path', `"${segments.join('/')}" exists in the workspace and is not a regular file.`, { field: 'files' });
  }
  const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC | fs.constants.O_NOFOLLOW, 0o644);
  try {
    fs.writeSync(fd, content);
    fs.fchownSync(fd, owner.uid, owner.gid);
  } finally {
    fs.closeSync(fd);
  }
}

function lstatOrUndefined(file: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(file);
  } catch {
    return undefined;
  }
}

/** True when a workspace path names an existing regular file reached without symlinks. */
export function isWorkspaceFile(root: string, segments: string[]): boolean {
  let current = root;
  for (const segment of segments) {
    current = path.join(current, segment);
    const stat = lstatOrUndefined(current);
    if (!stat || stat.isSymbolicLink()) return false;
  }
  return lstatOrUndefined(current)?.isFile() ?? false;
}
