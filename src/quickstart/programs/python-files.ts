// Python programs whose result is a file they write (`img.save("thumb.png")`, `df.to_csv("out.csv")`): the files the
// example names are noted before it runs, and at exit those written since are printed; when none was, the value the
// program would have printed (its last expression or assignment) is printed instead. Decided when it runs, because
// which literal is an output and which an input is not known before. The Go and npm sides: go-effects.ts, node-files.ts.

/** What a program that shows its value only when it wrote no file calls instead of print. */
export const PY_SHOW_AT_EXIT = 'show_at_exit';

/** The script with the exit report before its first statement (after any `from __future__` import, which must lead). */
export function withPythonWrittenFiles(script: string, files: string[]): string {
  const prelude = `# The files the example names, noted before it runs; those it wrote are printed when it exits, else its value.
import atexit as _atexit
import os as _os
_files_at_start = {_name: (_os.stat(_name).st_mtime_ns if _os.path.isfile(_name) else 0) for _name in ${JSON.stringify(files)}}
_shown_at_exit = []


def ${PY_SHOW_AT_EXIT}(value):
    _shown_at_exit.append(lambda: print(value))
    return value


@_atexit.register
def _print_files_written():
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
    if not wrote:
        for show in _shown_at_exit:
            show()

`;
  const lines = script.split('\n');
  let at = 0;
  lines.forEach((line, i) => { if (/^from __future__ import\b/.test(line)) at = i + 1; });
  return [...lines.slice(0, at), prelude, ...lines.slice(at)].join('\n');
}
