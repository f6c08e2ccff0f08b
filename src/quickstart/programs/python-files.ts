// Python programs whose result is a file they write (`img.save("thumb.png")`, `df.to_csv("out.csv")`): the files the
// example names are noted before it runs, and at exit those written since are printed; when none was, the value the
// program would have printed (its last expression or assignment) is printed instead. Decided when it runs, because
// which literal is an output and which an input is not known before. The Go and npm sides: go-effects.ts, node-files.ts.

/** The module global that holds the value to print at exit when no file was written. */
const VALUE = '_value_at_exit';
const SHOW = '_print_files_written';

/** The statement that keeps a value (an expression's text, or a bare or tuple target) for the exit report. */
export const keepForExit = (value: string): string => `${VALUE} = (${value})`;

/**
 * The script with the exit report: four lines before the example note the files (after any `from __future__` import,
 * which must lead), and the report's definition follows it, so a reader sees the example first (the exit handler
 * looks the function up when it runs, at exit). A script that stops before the definition (an exception, `sys.exit`)
 * reports nothing at exit: its own error stays the last line of stderr, which the failure reason and the repairs read
 * (a `NameError` for the report's name there sent the repairs to import it from the package and to pip-install
 * words of the example).
 */
export function withPythonWrittenFiles(script: string, files: string[]): string {
  const note = `import atexit as _atexit
import os as _os
_files_at_start = {_name: (_os.stat(_name).st_mtime_ns if _os.path.isfile(_name) else 0) for _name in ${JSON.stringify(files)}}
_atexit.register(lambda: globals().get("${SHOW}", lambda: None)())  # at exit: the files it wrote, else its value

`;
  const report = `


def ${SHOW}():
    wrote = 0
    for name, before in _files_at_start.items():
        if not _os.path.isfile(name) or _os.stat(name).st_mtime_ns == before:
            continue
        with open(name, "rb") as handle:
            data = handle.read()
        wrote += 1
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        if data and text is not None and "\\0" not in text:
            print(f"wrote {name} ({len(data)} bytes):\\n" + "\\n".join(text.split("\\n")[:10]).rstrip())
        else:
            print(f"wrote {name} ({len(data)} bytes)")
    if not wrote and "${VALUE}" in globals():
        print(${VALUE})
`;
  const lines = script.replace(/\s+$/, '').split('\n');
  let at = 0;
  lines.forEach((line, i) => { if (/^from __future__ import\b/.test(line)) at = i + 1; });
  return `${[...lines.slice(0, at), note + lines.slice(at).join('\n')].join('\n')}${report}`;
}
