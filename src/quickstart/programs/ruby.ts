// Ruby examples as programs: the gem required when the README omits it, and the last value printed when the example
// prints nothing. Gem names and require paths are the same for almost every gem; `-` becomes `/` otherwise.
const PRINTS = /^\s*(puts|p|pp|print|printf|\$stdout\.)\b/m;

export function rubyProgram(code: string, name: string): string {
  let program = code.replace(/\s+$/, '') + '\n';
  if (!/^\s*require\s*\(?\s*['"]/m.test(program)) program = `require '${name}'\n\n${program}`;
  if (!PRINTS.test(program)) {
    const lines = program.trimEnd().split('\n');
    const last = lines[lines.length - 1] ?? '';
    const assigned = /^\s*([a-z_]\w*)\s*=[^=]/.exec(last)?.[1];
    if (assigned) lines.push(`p ${assigned}`);
    else if (last.trim() && !/^\s*(end|require|class|module|def|#)\b/.test(last) && !/\bdo\s*(\|.*\|)?\s*$/.test(last)) lines[lines.length - 1] = `p(${last.replace(/\s*#.*$/, '').trim()})`;
    program = lines.join('\n') + '\n';
  }
  return program;
}
