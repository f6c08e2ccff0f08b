// Python transcripts written in IPython's form (round 19 noticed: numba's docs failed every try with an
// IndentationError). numba's cfunc.rst pastes a function body under `>>> def integrand(t):` with no prompt, ends it
// with IPython's empty continuation prompt `   ...:`, and shows results after `>>>` lines; other docs write whole
// IPython sessions (`In [1]:`, `   ...:`, `Out[1]:`). Both are read as the transcript they are (programs/python.ts
// readTranscript, ipythonAsDoctest); the scripts made from them run with python3.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { ipythonAsDoctest, pythonProgram, readTranscript, transcriptToScript } from '../../../src/quickstart/programs/python.ts';

/** numba 0.68.1's docs/source/user/cfunc.rst transcript, its numba and scipy calls swapped for the standard library's. */
const PASTED = [
  '>>> import math',
  '>>> def integrand(t):',
  '        return math.exp(-t) / t**2',
  '   ...:',
  '>>> def do_integrate(func):',
  '        """',
  '        Sum the given function over 1, 2 and 3.',
  '        """',
  '        return sum(func(x) for x in (1, 2, 3))',
  '   ...:',
  '>>> round(do_integrate(integrand), 6)',
  '0.407245',
].join('\n');

describe('IPython transcripts', () => {
  it('a body pasted under a `>>>` block opener, closed by `...:`, is the statement\'s body, and the script runs', async () => {
    const steps = readTranscript(PASTED);
    assert.equal(steps.length, 4);
    assert.equal(steps[1]!.source.trimEnd(), 'def integrand(t):\n    return math.exp(-t) / t**2');
    assert.deepEqual(steps[1]!.output, []);
    assert.deepEqual(steps[3]!.output, ['0.407245']);
    const script = await transcriptToScript(PASTED);
    assert.match(script, /^print\(round\(do_integrate\(integrand\), 6\)\)$/m, script);
    assert.equal(execFileSync('python3', ['-c', script], { encoding: 'utf8' }), '0.407245\n');
  });

  it('prompted continuations and results after a loop are read as before', async () => {
    const steps = readTranscript('>>> for i in range(2):\n...     print(i)\n0\n1\n>>> if True:\n...     x = 1\n>>> x\n1');
    assert.deepEqual(steps.map((s) => [s.source, s.output]), [['for i in range(2):\n    print(i)', ['0', '1']], ['if True:\n    x = 1', []], ['x', ['1']]]);
  });

  it('an IPython session (In [n]: / ...: / Out[n]:) is a doctest transcript, and its program runs', async () => {
    const session = [
      'In [1]: import statistics',
      '',
      'In [2]: def spread(values):',
      '   ...:     return max(values) - min(values)',
      '   ...:',
      '',
      'In [3]: spread([3, 9, 4])',
      'Out[3]: 6',
      '',
      'In [4]: statistics.median([3, 9, 4])',
      'Out[4]: 4',
    ].join('\n');
    const doctest = ipythonAsDoctest(session);
    assert.equal(doctest, ['>>> import statistics', '', '>>> def spread(values):', '...     return max(values) - min(values)', '...', '',
      '>>> spread([3, 9, 4])', '6', '', '>>> statistics.median([3, 9, 4])', '4'].join('\n'));
    assert.equal(ipythonAsDoctest('import statistics\nprint(statistics.median([1, 2]))'), undefined);
    const program = await pythonProgram(doctest!, 'ipython', 'statistics');
    assert.equal(execFileSync('python3', ['-c', program], { encoding: 'utf8' }), '6\n4\n');
  });
});
