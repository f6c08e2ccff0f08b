// READMEs that mark a call's shown result with `>>>` on the next line (programs/python-results.ts). The block is
// rfc3339-validator 0.1.4's README example (spent set r11: it failed as "never imports the package", read as a
// transcript whose only statements were `False` and `True`). The script is run with python3 where there is one.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { resultsAfterPrompts } from '../../../src/quickstart/programs/python-results.ts';

const RFC3339 = "from rfc3339_validator import validate_rfc3339\n\nvalidate_rfc3339('1424-45-93T15:32:12.9023368Z')\n>>> False\n\nvalidate_rfc3339('2001-10-23T15:32:12.9023368Z')\n>>> True";

describe('Python results shown after a >>> prompt', () => {
  it('keeps the lines without a prompt and prints the calls whose results the prompts show', async () => {
    assert.equal(await resultsAfterPrompts(RFC3339),
      "from rfc3339_validator import validate_rfc3339\n\nprint(validate_rfc3339('1424-45-93T15:32:12.9023368Z'))  # False\n\nprint(validate_rfc3339('2001-10-23T15:32:12.9023368Z'))  # True");
    const script = (await resultsAfterPrompts("import json\n\njson.loads('[1, 2]')\n>>> [1, 2]"))!;
    const run = spawnSync('python3', ['-c', script], { encoding: 'utf8' });
    if (run.status !== null && !run.error) assert.equal(run.stdout, '[1, 2]\n');
  });

  it('a doctest transcript, a prompt holding a call, and a block without prompts are not this notation', async () => {
    assert.equal(await resultsAfterPrompts('>>> import json\n>>> json.loads("[1]")\n[1]'), undefined);
    assert.equal(await resultsAfterPrompts('import json\nx = 1\n>>> json.dumps(x)'), undefined);
    assert.equal(await resultsAfterPrompts('import json\nprint(json.dumps(1))'), undefined);
  });
});
