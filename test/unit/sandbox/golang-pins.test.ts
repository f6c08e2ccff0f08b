// The Go build's pins: what `go get` resolved in the service-owned module, read back for the session's own go.mod.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { golangRuntime } from '../../../src/sandbox/runtimes/golang.ts';

describe('go pins', () => {
  it('keeps a pin `go get` recorded as indirect (no source imports it yet), with the rest of its module graph', () => {
    const deps = fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-gopins-'));
    fs.mkdirSync(path.join(deps, 'gomod'));
    // What `go mod edit -json` prints after `go get github.com/hashicorp/consul/api@v1.34.5` in an empty module.
    fs.writeFileSync(path.join(deps, 'gomod', 'requires.json'), JSON.stringify({ Module: { Path: 'sandbox' }, Require: [
      { Path: 'github.com/hashicorp/consul/api', Version: 'v1.34.5', Indirect: true },
      { Path: 'github.com/hashicorp/go-cleanhttp', Version: 'v0.5.2', Indirect: true },
    ] }));
    const locked = golangRuntime.locked!(deps);
    assert.deepEqual(locked, [{ name: 'github.com/hashicorp/consul/api', version: 'v1.34.5' }, { name: 'github.com/hashicorp/go-cleanhttp', version: 'v0.5.2' }]);
    fs.rmSync(deps, { recursive: true, force: true });
  });

  it('has no pins before anything was fetched', () => {
    assert.deepEqual(golangRuntime.locked!(fs.mkdtempSync(path.join(os.tmpdir(), 'tooldex-gopins-'))), []);
  });
});
