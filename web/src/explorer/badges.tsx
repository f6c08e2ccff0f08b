// Small labels shared by the explorer's pages: the ecosystem badge, popularity as a meter, the verification status.
import type { Verified } from './api.ts';

const ECOSYSTEM_NAMES: Record<string, string> = { npm: 'npm', pypi: 'PyPI', crates: 'crates.io', go: 'Go', rubygems: 'RubyGems' };

export function EcosystemBadge({ ecosystem }: { ecosystem: string }) {
  return <span class={`eco eco-${ecosystem}`}>{ECOSYSTEM_NAMES[ecosystem] ?? ecosystem}</span>;
}

/** Popularity is 0–1 within the tool's ecosystem: a meter with the number beside it. */
export function Popularity({ value }: { value: number }) {
  const pct = Math.round(value * 100);
  return (
    <span class="popularity" title="Popularity within its ecosystem (0–100)">
      <meter min={0} max={100} value={pct} aria-label="Popularity" />
      <span class="popularity-value">{pct}</span>
    </span>
  );
}

const STATUS_TEXT: Record<Verified['status'], string> = {
  ran: '✓ Verified: tooldex ran it',
  pending: '… Verification pending',
  failed: '✗ Verification failed',
  unverifiable: 'Not verifiable here',
};

export function VerifiedStatus({ verified, name }: { verified: Verified | undefined; name: string }) {
  if (!verified) return <p class="verified verified-none">Not verified: this server does not run quickstarts.</p>;
  return (
    <div class={`verified verified-${verified.status}`} data-status={verified.status}>
      <p class="verified-status"><strong>{STATUS_TEXT[verified.status]}</strong>
        {verified.status === 'ran' && <> on {name} {verified.version}{verified.runtime ? ` (${verified.runtime})` : ''}{verified.ranAt ? `, ${new Date(verified.ranAt).toLocaleDateString()}` : ''}</>}
      </p>
      {verified.reason && <p class="verified-reason">{verified.reason}</p>}
      {verified.note && <p class="hint">{verified.note}</p>}
      {verified.status === 'ran' && verified.stdout && (
        <details><summary>What it printed</summary><pre class="output">{verified.stdout}</pre></details>
      )}
    </div>
  );
}
