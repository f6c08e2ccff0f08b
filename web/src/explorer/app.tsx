// The explorer shell: finds out how to reach the tools (public, or through a dashboard session), keeps the search
// box in the header, routes between home, results and tool pages, and gives "/" to the search box.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { discoverAccess, toolsApi, type Access, type ToolsApi } from './api.ts';
import { hrefOf, parseRoute, type Route } from './route.ts';
import { ProjectBox } from './project-box.tsx';
import { Results } from './results.tsx';
import { ToolPage } from './tool-page.tsx';

const EXAMPLES = [
  'validate typescript object schemas at runtime',
  'http client with retries in python',
  'parse yaml',
  'parallel iterators in rust',
  'structured logging for go',
];

export function ExplorerApp() {
  const [route, setRoute] = useState<Route>(parseRoute(location.hash));
  const [access, setAccess] = useState<Access | null>(null);
  const [problem, setProblem] = useState('');
  const search = useRef<HTMLInputElement>(null);
  const [draft, setDraft] = useState(route.page === 'search' ? route.q : '');

  useEffect(() => {
    const onHash = () => {
      const next = parseRoute(location.hash);
      setRoute(next);
      if (next.page === 'search') setDraft(next.q);
      window.scrollTo(0, 0);
    };
    // "/" jumps to the search box from anywhere but a text field, as on most search sites.
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement;
      if (event.key === '/' && !/^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) && !target.isContentEditable) {
        event.preventDefault();
        search.current?.focus();
        search.current?.select();
      }
    };
    window.addEventListener('hashchange', onHash);
    window.addEventListener('keydown', onKey);
    discoverAccess().then(setAccess, (error: Error) => setProblem(error.message));
    return () => {
      window.removeEventListener('hashchange', onHash);
      window.removeEventListener('keydown', onKey);
    };
  }, []);

  // Signed out on a server that requires keys: signing in happens in the dashboard (often another tab), so look
  // again whenever this tab comes back into view.
  const signedOut = access?.server.auth === 'required' && !access.session;
  useEffect(() => {
    if (!signedOut) return;
    const recheck = () => {
      if (document.visibilityState === 'visible') discoverAccess().then(setAccess, () => undefined);
    };
    document.addEventListener('visibilitychange', recheck);
    window.addEventListener('focus', recheck);
    return () => {
      document.removeEventListener('visibilitychange', recheck);
      window.removeEventListener('focus', recheck);
    };
  }, [signedOut]);

  const api = useMemo(() => (access ? toolsApi(access) : null), [access]);
  const submit = (event: Event) => {
    event.preventDefault();
    if (draft.trim()) location.hash = hrefOf({ page: 'search', q: draft.trim() });
  };
  const chooseOrg = (id: string) => setAccess((prev) => (prev ? { ...prev, org: prev.session?.orgs.find((o) => o.id === id) } : prev));

  let view;
  if (problem) view = <p class="form-error" role="alert">{problem}</p>;
  else if (!access || !api) view = <p class="muted">Loading…</p>;
  else if (access.server.auth === 'required' && !access.session) view = <SignInNotice />;
  else if (route.page === 'search') view = <Results api={api} q={route.q} />;
  else if (route.page === 'tool') view = <ToolPage api={api} reference={route.ref} access={access} />;
  else view = <Home api={api} />;

  return (
    <>
      <a class="skip" href="#main" onClick={(event) => { event.preventDefault(); document.getElementById('main')?.focus(); }}>Skip to content</a>
      <header class="topbar explorer-bar">
        <a class="brand" href="#/">tooldex</a>
        <form class="search-form" role="search" onSubmit={submit}>
          <label for="q" class="sr-only">Search developer tools</label>
          <input id="q" ref={search} type="search" placeholder="What should the tool do?  (press / to search)" autoComplete="off"
            value={draft} onInput={(event) => setDraft((event.target as HTMLInputElement).value)} enterKeyHint="search" />
          <button type="submit" class="primary">Search</button>
        </form>
        <div class="topbar-right">
          {access?.session && access.session.orgs.length > 1 && (
            <label class="org-picker">
              <span class="sr-only">Organisation for test runs</span>
              <select value={access.org?.id} onChange={(event) => chooseOrg((event.target as HTMLSelectElement).value)}>
                {access.session.orgs.map((o) => <option key={o.id} value={o.id}>{o.name}</option>)}
              </select>
            </label>
          )}
          {access?.session && <span class="who" title={access.session.email}>{access.org?.name ?? access.session.email}</span>}
          <a class="topbar-link" href="/dashboard/">Dashboard</a>
        </div>
      </header>
      <main id="main" class="page" tabIndex={-1}>{view}</main>
    </>
  );
}

function Home({ api }: { api: ToolsApi }) {
  return (
    <section aria-labelledby="home-title" class="home">
      <h1 id="home-title">Find a developer tool, learn it, prove it works</h1>
      <p class="lead">
        tooldex answers coding agents over MCP and REST. This page shows the same answers: search the directory of npm, PyPI,
        crates.io, Go and RubyGems packages, open a tool for its install commands and quickstart, ask its documentation,
        and run the quickstart in the sandbox.
      </p>
      <h2>Try</h2>
      <ul class="examples">
        {EXAMPLES.map((q) => <li key={q}><a href={hrefOf({ page: 'search', q })}>{q}</a></li>)}
      </ul>
      <p class="hint">Keyboard: <kbd>/</kbd> jumps to the search box; <kbd>↓</kbd> and <kbd>↑</kbd> move through results.</p>
      <ProjectBox api={api} />
    </section>
  );
}

function SignInNotice() {
  return (
    <section class="card narrow" aria-labelledby="signin-title">
      <h1 id="signin-title">Sign in to explore</h1>
      <p>This server requires an API key for every tool call. Sign in to the dashboard and the explorer uses your organisation.</p>
      <p><a class="button primary" href="/dashboard/">Sign in to the dashboard</a></p>
    </section>
  );
}
