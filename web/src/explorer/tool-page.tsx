// A tool's page: what get_tool_context answers (install per manager, imports, the quickstart and whether tooldex
// ran it, links, version), a box to ask its docs, and a Run button for the quickstart. #/tool/<slug[@version]>.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, type Access, type ToolContext, type ToolsApi } from './api.ts';
import { EcosystemBadge, VerifiedStatus } from './badges.tsx';
import { DocsBox } from './docs-box.tsx';
import { hrefOf } from './route.ts';
import { RunPanel } from './run-panel.tsx';

const POLL_MS = 5000;
const POLLS = 24;
/** Temporary 503s asked again before the page shows the error (each waits the server's Retry-After). */
const RETRIES = 12;

export function ToolPage({ api, reference, access }: { api: ToolsApi; reference: string; access: Access }) {
  const [context, setContext] = useState<ToolContext | null>(null);
  const [error, setError] = useState<ApiError | null>(null);

  useEffect(() => {
    let current = true;
    let polls = 0;
    let timer: number | undefined;
    setContext(null);
    setError(null);
    let retries = 0;
    const load = () => api.context(reference).then((answer) => {
      if (!current) return;
      setContext(answer);
      // A quickstart being verified is worth a second look: ask again for a while, as the status says.
      if (answer.quickstart?.verified?.status === 'pending' && ++polls <= POLLS) timer = window.setTimeout(load, POLL_MS);
    }, (failure: unknown) => {
      if (!current) return;
      const error = failure instanceof ApiError ? failure : new ApiError(0, 'error', 'Loading the tool failed.');
      // A 503 with Retry-After is temporary (a large package still being indexed in the background, a registry
      // backing off, the instance starting): ask again when the server says, for a while, before showing the error.
      if (error.status === 503 && error.retryAfterSeconds !== undefined && ++retries <= RETRIES) {
        timer = window.setTimeout(load, Math.max(1, error.retryAfterSeconds) * 1000);
        return;
      }
      setError(error);
    });
    void load();
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [api, reference]);

  if (error) return <ToolError error={error} reference={reference} />;
  if (!context) return <p class="muted" role="status">Reading the package… (the first look at a package reads its published files, a few seconds)</p>;

  const slugAt = `${context.slug}@${context.version}`;
  return (
    <article class="tool" aria-labelledby="tool-title">
      <header class="tool-head">
        <h1 id="tool-title">{context.name}</h1>
        <EcosystemBadge ecosystem={context.ecosystem} />
        <span class="version">{context.version}</span>
        {context.license && <span class="license">{context.license}</span>}
      </header>
      <p class="lead">{context.description}</p>
      <VersionLine context={context} />

      <div class="tool-grid">
        <section aria-labelledby="install-title" class="card">
          <h2 id="install-title">Install</h2>
          <dl class="install-list">
            {context.install.map((item) => (
              <div key={item.manager}><dt>{item.manager}</dt><dd><code>{item.command}</code></dd></div>
            ))}
          </dl>
          {context.imports.length > 0 && (
            <>
              <h3>Import</h3>
              <pre class="code"><code>{context.imports.join('\n')}</code></pre>
            </>
          )}
        </section>

        <section aria-labelledby="links-title" class="card">
          <h2 id="links-title">Links</h2>
          <ul class="links">
            {context.links.docs && <li><a href={context.links.docs} rel="noreferrer">Documentation</a></li>}
            {context.links.repository && <li><a href={context.links.repository} rel="noreferrer">Repository</a></li>}
            {context.links.homepage && context.links.homepage !== context.links.docs && <li><a href={context.links.homepage} rel="noreferrer">Homepage</a></li>}
            <li><a href={context.links.registry} rel="noreferrer">Registry page</a></li>
          </ul>
        </section>
      </div>

      <section aria-labelledby="quickstart-title" class="card">
        <h2 id="quickstart-title">Quickstart</h2>
        <VerifiedStatus verified={context.quickstart?.verified} name={context.name} />
        {context.quickstart?.code
          ? <pre class="code"><code>{context.quickstart.code}</code></pre>
          : <p class="empty">The documentation of this version shows no usage example.</p>}
        {context.quickstart?.source && <p class="hint">From <a href={context.quickstart.source} rel="noreferrer">{context.quickstart.source}</a></p>}
        <RunPanel api={api} request={context.testRequest} access={access} />
      </section>

      <DocsBox api={api} reference={slugAt} name={context.name} />
    </article>
  );
}

/** The version shown, the latest, and a way to open another version (exact, range or tag). */
function VersionLine({ context }: { context: ToolContext }) {
  const [other, setOther] = useState('');
  const open = (event: Event) => {
    event.preventDefault();
    if (other.trim()) location.hash = hrefOf({ page: 'tool', ref: `${context.slug}@${other.trim()}` });
  };
  return (
    <form class="version-line" onSubmit={open}>
      <span>Version <strong>{context.version}</strong>{context.version === context.latestVersion
        ? ' (latest)'
        : <> · latest is <a href={hrefOf({ page: 'tool', ref: context.slug })}>{context.latestVersion}</a></>}</span>
      <label for="other-version" class="sr-only">Another version (exact, range or tag)</label>
      <input id="other-version" class="version-input" placeholder="other version: 3, 3.2.1" value={other}
        onInput={(event) => setOther((event.target as HTMLInputElement).value)} />
      <button type="submit">Open</button>
    </form>
  );
}

function ToolError({ error, reference }: { error: ApiError; reference: string }) {
  const hints = Array.isArray(error.details.hints) ? (error.details.hints as string[]) : [];
  const versions = Array.isArray(error.details.versions) ? (error.details.versions as string[]) : [];
  const base = reference.replace(/@[^@]*$/, '') || reference;
  return (
    <section class="card" role="alert">
      <h1>{error.code === 'not_found' ? 'No such tool' : error.code === 'version_not_found' ? 'No such version' : 'Could not load the tool'}</h1>
      <p>{error.message}</p>
      {hints.length > 0 && <p>Did you mean {hints.map((slug, i) => <span key={slug}>{i > 0 && ', '}<a href={hrefOf({ page: 'tool', ref: slug })}>{slug}</a></span>)}?</p>}
      {versions.length > 0 && <p>Recent versions: {versions.map((v, i) => <span key={v}>{i > 0 && ', '}<a href={hrefOf({ page: 'tool', ref: `${base}@${v}` })}>{v}</a></span>)}</p>}
    </section>
  );
}
