// npm programs whose result is a file they write (`stream.pipe(fs.createWriteStream('combined.txt'))`): the files the
// example names are noted as it starts, and when the process exits those written since are printed; when none was,
// the values the program would have printed (each top-level expression's value) are printed instead. Decided when it
// runs, because which literal is the output and which an input is not known before. The Go side is go-effects.ts.
import { namedFiles } from '../fixtures.ts';
import type { Grammar } from '../parse.ts';

/** What a program that shows its values only when it wrote no file calls instead of console.log. */
export const SHOW_AT_EXIT = 'showAtExit';
/** The call before the example that notes the files it names. */
const NOTE = 'noteFilesWritten';

/** The relative file names the example's string literals give (fixtures.ts's reading): none when there are too many. */
export function filesNamed(code: string, grammar: Grammar): Promise<string[]> {
  return namedFiles(code, grammar, [], true);
}

/**
 * The program with the exit report: one line before the example notes the files (their modification times); the
 * helpers follow it, so a reader sees the example first. At exit the files written since are printed (text: its first
 * ten lines; other content: its size), else the values passed to `showAtExit`, as console.log prints them. `esm` says
 * how node:fs is reached (an import is hoisted, so it may come last).
 */
export function withWrittenFiles(program: string, files: string[], esm: boolean): string {
  const fs = esm ? "import { statSync as statOfFile, readFileSync as readOfFile } from 'node:fs';\n" : '';
  const reach = esm ? '' : "\n  const { statSync: statOfFile, readFileSync: readOfFile } = require('node:fs');";
  const helpers = `// The files the example names, noted before it runs: those it wrote are printed when it exits, else its values.
${fs}function ${NOTE}(names) {${reach}
  const before = new Map(names.map((name) => { try { return [name, statOfFile(name).mtimeMs]; } catch { return [name, 0]; } }));
  process.on('exit', () => {
    let wrote = 0;
    for (const [name, at] of before) {
      let stat;
      try { stat = statOfFile(name); } catch { continue; }
      if (!stat.isFile() || stat.mtimeMs === at) continue;
      const data = readOfFile(name);
      const text = data.toString('utf8');
      wrote++;
      if (data.length && !text.includes('\\uFFFD') && !text.includes('\\0')) console.log(\`wrote \${name} (\${data.length} bytes):\\n\${text.split('\\n').slice(0, 10).join('\\n').trimEnd()}\`);
      else console.log(\`wrote \${name} (\${data.length} bytes)\`);
    }
    if (!wrote) for (const show of ${SHOW_AT_EXIT}.shown ?? []) show();
  });
}

function ${SHOW_AT_EXIT}(value) {
  (${SHOW_AT_EXIT}.shown ??= []).push(() => console.log(value));
  return value;
}
`;
  return `${NOTE}(${JSON.stringify(files)});\n\n${program.replace(/\s+$/, '')}\n\n${helpers}`;
}
