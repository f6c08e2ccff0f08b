// Search results as an agent sees them (the compact fields of search_tools): name, ecosystem, version, popularity,
// one description, install command. Each result links to its tool page; ↓/↑ move between results.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, type Tool, type ToolsApi } from './api.ts';
import { EcosystemBadge, Popularity } from './badges.tsx';
import { hrefOf } from './route.ts';

export function Results({ api, q }: { api: ToolsApi; q: string }) {
  const [tools, setTools] = useState<Tool[] | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    let current = true;
    setTools(null);
    setError('');
    api.search(q).then((answer) => current && setTools(answer.results),
      (failure: unknown) => current && setError(failure instanceof ApiError ? failure.message : 'Search failed.'));
    return () => {
      current = false;
    };
  }, [api, q]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const links = [...document.querySelectorAll<HTMLAnchorElement>('.result-name a')];
    const at = links.indexOf(document.activeElement as HTMLAnchorElement);
    const next = links[event.key === 'ArrowDown' ? Math.min(links.length - 1, at + 1) : Math.max(0, at - 1)];
    if (next) {
      event.preventDefault();
      next.focus();
    }
  };

  return (
    <section aria-labelledby="results-title">
      <h1 id="results-title" class="results-title">Tools for “{q}”</h1>
      {error && <p class="form-error" role="alert">{error}</p>}
      {!error && tools === null && <p class="muted" role="status">Searching…</p>}
      {tools?.length === 0 && <p class="empty">No tools found; try other words, or name the language (“… in python”).</p>}
      {tools && tools.length > 0 && (
        <ol class="results" onKeyDown={onKeyDown}>
          {tools.map((tool) => (
            <li key={tool.slug} class="result">
              <div class="result-head">
                <h2 class="result-name"><a href={hrefOf({ page: 'tool', ref: tool.slug })}>{tool.name}</a></h2>
                <EcosystemBadge ecosystem={tool.ecosystem} />
                {tool.version && <span class="version">{tool.version}</span>}
                <Popularity value={tool.popularity} />
              </div>
              <p class="result-description">{tool.shortDescription || tool.description}</p>
              <code class="install">{tool.install}</code>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
