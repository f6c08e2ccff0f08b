// Registries played on 127.0.0.1 for operating tests: an npm registry whose tarball answers can be held back
// (a slow registry) or refused (a failing one), and a PyPI with one small wheel. Nothing here reaches another host.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { zipSync } from 'fflate';
import { goodPackage } from '../docs/fixtures.ts';

export interface GatedNpm {
  url: string;
  /** Requests per path. */
  hits: Map<string, number>;
  /** 'ok' answers (tarballs only once released), 'fail' answers 500 to everything. */
  mode: 'ok' | 'fail';
  /** Lets every held-back tarball answer, now and from now on. */
  release(): void;
  /** Holds tarball answers back again. */
  hold(): void;
  close(): Promise<void>;
}

export async function startGatedNpm(names: string[], version = '1.0.0'): Promise<GatedNpm> {
  let open = false;
  let waiting: Array<() => void> = [];
  const tarballs = new Map(names.map((name) => [name, goodPackage(name, version)]));
  const server = http.createServer((request, response) => {
    const path = decodeURIComponent((request.url ?? '/').split('?')[0]!);
    fake.hits.set(path, (fake.hits.get(path) ?? 0) + 1);
    if (fake.mode === 'fail') return void response.writeHead(500).end('down');
    const tarball = /^\/([^/]+)\/-\/[^/]+\.tgz$/.exec(path);
    if (tarball) {
      const body = tarballs.get(tarball[1]!);
      if (!body) return void response.writeHead(404).end();
      const send = () => response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
      if (open) send();
      else waiting.push(send);
      return;
    }
    const [name = '', asked] = path.slice(1).split('/'); // /<name> (packument) or /<name>/<version> (manifest)
    if (!tarballs.has(name) || (asked && asked !== version && asked !== 'latest')) {
      return void response.writeHead(404, { 'content-type': 'application/json' }).end('{}');
    }
    const manifest = { name, version, description: `${name} fixture`, license: 'MIT', dist: { tarball: `${fake.url}/${name}/-/${name}-${version}.tgz` } };
    response.writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify(asked ? manifest : { name, 'dist-tags': { latest: version }, versions: { [version]: manifest } }));
  });
  const fake: GatedNpm = {
    url: '', hits: new Map(), mode: 'ok',
    release() {
      open = true;
      for (const send of waiting) send();
      waiting = [];
    },
    hold() {
      open = false;
    },
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

const text = (value: string) => Buffer.from(value);

/** A PyPI JSON API with one package, fxpy 1.0.0, as a wheel. */
export async function startFakePypi(): Promise<{ url: string; close(): Promise<void> }> {
  const wheel = zipSync({
    'fxpy/__init__.py': text('"""Fxpy makes widgets from Python, quickly and without ceremony."""\n\ndef frobnicate(times=1):\n    """Frobnicate widgets the given number of times."""\n    return times\n'),
    'fxpy-1.0.0.dist-info/METADATA': text('Metadata-Version: 2.1\nName: fxpy\nVersion: 1.0.0\n\n# fxpy\n\nFrobnicate widgets from Python.\n'),
    'fxpy-1.0.0.dist-info/top_level.txt': text('fxpy\n'),
  });
  const release = [{ packagetype: 'bdist_wheel', url: '../../files/fxpy-1.0.0-py3-none-any.whl', size: wheel.length, filename: 'fxpy-1.0.0-py3-none-any.whl' }];
  const server = http.createServer((request, response) => {
    const path = request.url ?? '/';
    if (path === '/pypi/fxpy/json') {
      return void response.writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ info: { version: '1.0.0', summary: 'Widgets' }, releases: { '1.0.0': release }, urls: release }));
    }
    if (path === '/files/fxpy-1.0.0-py3-none-any.whl') return void response.writeHead(200).end(Buffer.from(wheel));
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
