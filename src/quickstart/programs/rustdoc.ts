// rustdoc's reading of a doctest, with no parser behind it: the docs capability's plain test request and the verified
// Rust programs both use it, so a doctest's hidden lines are never dropped on either path.

/** `# ` hides a line from readers that still compiles (setup, `fn main`, `Ok(())`); `##` is a literal `#`. */
export function unhideDoctest(code: string): string {
  return code.split('\n').map((line) => {
    const trimmed = line.trimStart();
    if (trimmed === '#') return '';
    if (trimmed.startsWith('## ')) return line.replace('##', '#');
    if (trimmed.startsWith('# ') && !/^#\s*!?\[/.test(trimmed)) return line.replace(/#\s?/, '');
    return line;
  }).join('\n');
}
