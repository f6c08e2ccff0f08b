// What a Go example shows when it runs: whether it prints anything on the path a successful run takes, and the files
// it names, so that a program whose result is a file (a plot saved, a sheet written) says what it wrote.
//
// Why: an example that prints only where an error is handled (`if err := p.Save(…); err != nil { log.Fatal(err) }`)
// prints nothing when it works, so it was rejected as silent, while it did the package's main job; the file it wrote
// is its result. Read from the program's syntax tree (tree-sitter's Go grammar); no package named.
import { descendants, withSyntaxTree, type SyntaxNode } from '../parse.ts';

/** Calls that write to the output a reader reads (or run tests verbosely, which print their verdicts). */
const PRINT_CALL = /^(fmt\.(Print|Println|Printf|Fprint|Fprintln|Fprintf)|log\.(Print|Println|Printf|Fatal|Fatalf|Fatalln)|os\.Stdout\.Write(String)?|testing\.Main)$/;
/** An `if` condition that tests for an error (`err != nil`, `nil != err`, `e != nil` of an error named so). */
const ERROR_TEST = /\b(err\w*|e)\s*!=\s*nil\b|\bnil\s*!=\s*(err\w*|e)\b/;
/** A relative file path written as one string: plain segments, no `..`, an extension that starts with a letter. */
const FILE_PATH = /^(?!\.\.?\/)([\w][\w.-]*\/){0,4}[\w][\w.-]*\.[A-Za-z][A-Za-z0-9]{0,5}$/;
/** Extensions that name code or hosts (`main.go`, `example.com`), not a file the program writes or reads. */
const NOT_FILE = /\.(go|mod|sum|com|org|net|io|dev|exe|so|dll|js|ts|py|rs|rb)$/i;
/** More named files than this means the strings are data, not files. */
const MAX_FILES = 4;

/** Whether `node` sits in the consequence of an `if` that tests for an error: the failure path. */
function onErrorPath(node: SyntaxNode): boolean {
  for (let child = node, parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (parent.type !== 'if_statement') continue;
    const consequence = parent.childForFieldName('consequence');
    const condition = parent.childForFieldName('condition');
    if (consequence?.equals(child) && condition && ERROR_TEST.test(condition.text)) return true;
  }
  return false;
}

/**
 * Where the program prints: `success` when anything is printed outside its error handling (any print at all counts for
 * a program of tests), `error` when it prints only where an error is handled, `none` when it prints nothing.
 */
export function wherePrinted(program: string): Promise<'success' | 'error' | 'none'> {
  return withSyntaxTree('go', program, (root) => {
    const prints = descendants(root, 'call_expression').filter((call) => PRINT_CALL.test(call.childForFieldName('function')?.text ?? ''));
    return prints.some((call) => !onErrorPath(call)) ? 'success' : prints.length ? 'error' : 'none';
  });
}

/** The relative file paths the program's string literals give (not import paths), in order; none when too many. */
export function namedFilePaths(program: string): Promise<string[]> {
  return withSyntaxTree('go', program, (root) => {
    const names: string[] = [];
    for (const literal of descendants(root, ['interpreted_string_literal', 'raw_string_literal'])) {
      if (literal.parent?.type === 'import_spec') continue;
      const text = literal.text.slice(1, -1);
      if (FILE_PATH.test(text) && !NOT_FILE.test(text) && !names.includes(text)) names.push(text);
    }
    return names.length <= MAX_FILES ? names : [];
  });
}

const BEFORE = 'filesBefore';
const SHOW = 'printFilesWritten';
/** The name main binds the notes to: unusual enough not to be one of the example's own. */
const START = 'filesAtStart';
const HELPERS = `// ${BEFORE} notes when each named file was last written (0: not there yet), before the program runs.
func ${BEFORE}(names []string) map[string]int64 {
\tseen := map[string]int64{}
\tfor _, name := range names {
\t\tseen[name] = 0
\t\tif info, err := os.Stat(name); err == nil {
\t\t\tseen[name] = info.ModTime().UnixNano()
\t\t}
\t}
\treturn seen
}

// ${SHOW} prints the files the program wrote: text as it is (its first lines), other content by its size; it says
// how many it printed.
func ${SHOW}(names []string, seen map[string]int64) int {
\tprinted := 0
\tfor _, name := range names {
\t\tinfo, err := os.Stat(name)
\t\tif err != nil || info.IsDir() || info.ModTime().UnixNano() == seen[name] {
\t\t\tcontinue
\t\t}
\t\tdata, err := os.ReadFile(name)
\t\tif err != nil {
\t\t\tcontinue
\t\t}
\t\tif len(data) > 0 && utf8.Valid(data) && !bytes.ContainsRune(data, 0) {
\t\t\tlines := strings.SplitN(string(data), "\\n", 11)
\t\t\tif len(lines) > 10 {
\t\t\t\tlines = append(lines[:10], "…")
\t\t\t}
\t\t\tfmt.Printf("wrote %s (%d bytes):\\n%s\\n", name, len(data), strings.TrimRight(strings.Join(lines, "\\n"), "\\n"))
\t\t} else {
\t\t\tfmt.Printf("wrote %s (%d bytes)\\n", name, len(data))
\t\t}
\t\tprinted++
\t}
\treturn printed
}`;

/**
 * The program with `main` noting the named files as it starts and, as it ends, printing those it wrote; when it wrote
 * none, `otherwise` (a statement: the value it binds last, printed) runs instead. Unchanged when it names no file, has
 * no `main`, or defines the helpers' names itself. A run that ends early (`return`, `os.Exit`, a fatal log) prints
 * nothing more, as before.
 */
export async function showWrittenFiles(program: string, files: string[], otherwise?: string): Promise<string> {
  if (!files.length || new RegExp(`\\b(func (${BEFORE}|${SHOW})\\(|${START}\\b)`).test(program)) return program;
  const body = await withSyntaxTree('go', program, (root) => {
    const main = descendants(root, 'function_declaration').find((f) => f.childForFieldName('name')?.text === 'main' && f.parent?.type === 'source_file');
    const block = main?.childForFieldName('body');
    return block ? { open: block.startIndex, close: block.endIndex - 1 } : undefined;
  });
  if (!body) return program;
  const list = `[]string{${files.map((f) => JSON.stringify(f)).join(', ')}}`;
  const show = `${SHOW}(${list}, ${START})`;
  const end = otherwise ? `if ${show} == 0 {\n\t\t${otherwise}\n\t}` : show;
  const main = `${program.slice(0, body.open + 1)}\n\t${START} := ${BEFORE}(${list})${program.slice(body.open + 1, body.close).replace(/\s+$/, '')}\n\t${end}\n${program.slice(body.close)}`;
  return `${main.replace(/\s+$/, '')}\n\n${HELPERS}\n`;
}
