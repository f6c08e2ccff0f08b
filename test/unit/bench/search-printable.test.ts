// Which labelled sets the quick search bench may write out query by query (misses, QUICK_OUT rows with the top 5 and
// the answers): the training sets only. The held-out set and a current or next round's fresh set are for reporting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { HELDOUT_FILE, queriesPrintable, ROUND3_FRESH_FILE, SPENT_FRESH_FILE, TRAINING_FILES, TUNING_FILE } from '../../../bench/search-quality.ts';

test('the held-out set is never written query by query; the tuning and spent sets are', () => {
  assert.equal(queriesPrintable(HELDOUT_FILE), false);
  assert.equal(queriesPrintable(path.relative(process.cwd(), HELDOUT_FILE)), false, 'a relative path to it too');
  for (const file of [TUNING_FILE, SPENT_FRESH_FILE, ROUND3_FRESH_FILE]) assert.equal(queriesPrintable(file), true, file);
  assert.equal(TRAINING_FILES.filter(queriesPrintable).length, TRAINING_FILES.length - 1);
});

test('a current or next round\'s fresh set, or any unlisted file, is not written (names only: nothing is read)', () => {
  const dir = path.dirname(TUNING_FILE);
  for (const name of ['search-fresh-r21.tsv', 'search-fresh-r22.tsv', 'search-other.tsv']) assert.equal(queriesPrintable(path.join(dir, name)), false, name);
});
