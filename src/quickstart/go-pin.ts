// Which version of a Go module the sandbox's toolchain can build: the asked version when its go.mod's `go` directive
// is at most the sandbox's Go, else the newest earlier release whose go.mod allows it (said in a note). The sandbox
// never downloads another toolchain (GOTOOLCHAIN=local), so a module that needs a newer Go cannot build there at all.
import type { Config } from '../config.ts';
import { fetchText } from '../docs/fetch.ts';
import { escapeModulePath } from '../docs/sources/gomod.ts';

type Version = number[];
/** How many earlier releases are read (one small .mod file each) before giving up on an older pin. */
const MAX_PROBES = 12;

const parse = (text: string): Version | undefined => {
  const match = /^(?:go|v)?(\d+)\.(\d+)(?:\.(\d+))?/.exec(text.trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)] : undefined;
};

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return Math.sign((a[i] ?? 0) - (b[i] ?? 0));
  return 0;
}

/** The Go release a go.mod asks for (its `go` directive), e.g. "1.26.9". */
export function goDirective(goMod: string): string | undefined {
  return /^go\s+(\d+\.\d+(?:\.\d+)?)\s*$/m.exec(goMod)?.[1];
}

/** Whether a toolchain (`go1.26.8`) meets a go.mod's `go` directive (a missing directive always does). */
export function goMeets(toolchain: string, goMod: string): boolean {
  const need = goDirective(goMod);
  const have = parse(toolchain.replace(/^go/, ''));
  return !need || !have || compare(have, parse(need)!) >= 0;
}

export async function goPin(config: Config, module: string, version: string, goMod: string | undefined, toolchain: string | undefined): Promise<{ version: string; note?: string }> {
  if (!goMod || !toolchain || goMeets(toolchain, goMod)) return { version };
  const limits = { timeoutMs: config.TOOLDEX_FETCH_TIMEOUT_MS, maxBytes: 1024 * 1024 };
  const base = `${config.TOOLDEX_GOPROXY.replace(/\/$/, '')}/${escapeModulePath(module)}/@v`;
  const asked = parse(version.replace(/^v/, ''));
  const list = (await fetchText(`${base}/list`, limits).catch(() => undefined)) ?? '';
  const older = list.split('\n').map((v) => v.trim()).filter((v) => /^v\d+\.\d+\.\d+$/.test(v))
    .filter((v) => asked && compare(parse(v)!, asked) < 0).sort((a, b) => compare(parse(b)!, parse(a)!)).slice(0, MAX_PROBES);
  for (const candidate of older) {
    const mod = await fetchText(`${base}/${candidate}.mod`, limits).catch(() => undefined);
    if (mod !== undefined && goMeets(toolchain, mod)) {
      return { version: candidate, note: `${module} ${version} needs Go ${goDirective(goMod)}; the sandbox has ${toolchain}, so the quickstart was verified on ${candidate}, the newest release it can build.` };
    }
  }
  return { version };
}
