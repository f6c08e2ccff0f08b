// Hash routes of the explorer: #/ (home), #/search?q=… (results), #/tool/<slug[@version]> (a tool's page).
// Hash routes need no server-side routing, so the server serves one page at / and nothing else.

export type Route =
  | { page: 'home' }
  | { page: 'search'; q: string }
  | { page: 'tool'; ref: string };

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#\/?/, '');
  if (path.startsWith('search')) {
    const q = new URLSearchParams(path.slice(path.indexOf('?') + 1)).get('q') ?? '';
    return q.trim() ? { page: 'search', q } : { page: 'home' };
  }
  if (path.startsWith('tool/')) return { page: 'tool', ref: decodeURIComponent(path.slice('tool/'.length)) };
  return { page: 'home' };
}

export const hrefOf = (route: Route): string => {
  switch (route.page) {
    case 'home': return '#/';
    case 'search': return `#/search?${new URLSearchParams({ q: route.q })}`;
    case 'tool': return `#/tool/${encodeURIComponent(route.ref)}`;
  }
};
