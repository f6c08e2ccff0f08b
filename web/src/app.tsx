// The dashboard shell: session state, hash routes (#/keys, #/members, #/new-org, #/invite/<token>),
// the organisation picker and sign-out. Views below talk to the API; this file only routes.
import { useEffect, useState } from 'preact/hooks';
import { api, type Me, type Org, type ServerInfo } from './api.ts';
import { AuthView } from './auth-view.tsx';
import { InviteView } from './invite-view.tsx';
import { KeysView } from './keys-view.tsx';
import { MembersView } from './members-view.tsx';
import { CreateOrgView } from './org-view.tsx';

const currentRoute = () => location.hash.replace(/^#\/?/, '') || 'keys';

export function App() {
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const [route, setRoute] = useState(currentRoute());
  const [orgId, setOrgId] = useState<string | null>(null);
  const [server, setServer] = useState<ServerInfo | null>(null);

  useEffect(() => {
    const onHash = () => setRoute(currentRoute());
    window.addEventListener('hashchange', onHash);
    api.me().then(setMe, () => setMe(null)); // 401 not_signed_in: show the sign-in form
    api.server().then(setServer, () => setServer(null)); // the auth mode, for what revoking a key does
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  const go = (next: string) => {
    location.hash = `#/${next}`;
    setRoute(next);
  };
  const signedIn = (next: Me) => {
    setMe(next);
    setOrgId(next.orgs[0]?.id ?? null);
  };
  const addOrg = (org: Org) => {
    setMe((prev) => (prev ? { ...prev, orgs: [...prev.orgs.filter((o) => o.id !== org.id), org] } : prev));
    setOrgId(org.id);
    go('keys');
  };
  const signOut = async () => {
    await api.signOut().catch(() => undefined);
    setMe(null);
    setOrgId(null);
  };

  const inviteToken = route.startsWith('invite/') ? route.slice('invite/'.length) : null;
  if (me === undefined) return <main id="main" class="page"><p>Loading…</p></main>;
  if (me === null) {
    return (
      <main id="main" class="page">
        <AuthView onSignedIn={signedIn} note={inviteToken ? 'Sign in or create an account with the invited email address to accept your invite.' : undefined} />
      </main>
    );
  }

  const org = me.orgs.find((o) => o.id === orgId) ?? me.orgs[0];
  let view;
  if (inviteToken) view = <InviteView token={inviteToken} onJoined={addOrg} />;
  else if (!org || route === 'new-org') view = <CreateOrgView first={!org} onCreated={addOrg} />;
  else if (route === 'members') view = <MembersView org={org} />;
  else view = <KeysView org={org} server={server} />;

  return (
    <>
      <a class="skip" href="#main" onClick={(event) => { event.preventDefault(); document.getElementById('main')?.focus(); }}>Skip to content</a>
      <header class="topbar">
        <a class="brand" href="#/keys">tooldex</a>
        <div class="topbar-right">
          <a class="topbar-link" href="/">Explorer</a>
          {me.orgs.length > 0 && (
            <label class="org-picker">
              <span class="sr-only">Organisation</span>
              <select value={org?.id} onChange={(event) => setOrgId((event.target as HTMLSelectElement).value)}>
                {me.orgs.map((o) => <option key={o.id} value={o.id}>{o.name}</option>)}
              </select>
            </label>
          )}
          <span class="who" title={me.user.email}>{me.user.email}</span>
          <button type="button" onClick={signOut}>Sign out</button>
        </div>
      </header>
      {org && (
        <nav class="tabs" aria-label="Settings">
          <a href="#/keys" aria-current={route === 'keys' ? 'page' : undefined}>API Keys</a>
          <a href="#/members" aria-current={route === 'members' ? 'page' : undefined}>Members</a>
          <a href="#/new-org" aria-current={route === 'new-org' ? 'page' : undefined}>New organisation</a>
        </nav>
      )}
      <main id="main" class="page" tabIndex={-1}>{view}</main>
    </>
  );
}
