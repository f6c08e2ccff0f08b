// Settings → API Keys: list (name, prefix, created, last used, creator), create (shown once with a copy button and
// ready curl and MCP snippets), revoke behind a confirmation that says what revoking does under this server's
// auth mode, and a usage panel per key.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type ApiKey, type CreatedKey, type Org, type ServerInfo, type UsageDay } from './api.ts';
import { CopyBlock, CopyField, DateText, Field, FormError, useFormErrors } from './forms.tsx';
import { UsageChart } from './usage-chart.tsx';

/** Snippets that use a new key against this server: the REST API with curl, and an MCP client config. */
export function keySnippets(origin: string, key: string): { curl: string; mcp: string } {
  return {
    curl: `curl -H "Authorization: Bearer ${key}" "${origin}/tools/search?q=http+client&limit=3"`,
    mcp: JSON.stringify({ mcpServers: { tooldex: { type: 'http', url: `${origin}/mcp`, headers: { Authorization: `Bearer ${key}` } } } }, null, 2),
  };
}

export function KeysView({ org, server }: { org: Org; server: ServerInfo | null }) {
  const [keys, setKeys] = useState<ApiKey[] | null>(null);
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [confirming, setConfirming] = useState<ApiKey | null>(null);
  const [usage, setUsage] = useState<{ key: ApiKey; days: UsageDay[] } | null>(null);
  const [status, setStatus] = useState('');
  const errors = useFormErrors();
  const dialog = useRef<HTMLDialogElement>(null);
  const usagePanel = useRef<HTMLDivElement>(null);

  const load = async () => setKeys((await api.keys(org.id)).keys);
  useEffect(() => {
    setKeys(null);
    setCreated(null);
    setUsage(null);
    load().catch((error) => errors.take(error));
  }, [org.id]);

  useEffect(() => {
    if (confirming && dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [confirming]);

  // The panel opens below the table: on a phone that is off-screen, so bring it into view and move focus there.
  useEffect(() => {
    if (!usage || !usagePanel.current) return;
    usagePanel.current.scrollIntoView({ block: 'start', behavior: 'smooth' });
    usagePanel.current.focus({ preventScroll: true });
  }, [usage?.key.id]);

  const create = async (event: Event) => {
    event.preventDefault();
    errors.clear();
    if (!name.trim()) {
      errors.setField('name', 'Give the key a name, for example “ci” or “laptop”.');
      return;
    }
    try {
      const key = await api.createKey(org.id, name.trim());
      setCreated(key);
      setName('');
      setStatus(`Key “${key.name}” created.`);
      await load();
    } catch (error) {
      errors.take(error);
    }
  };

  const revoke = async () => {
    const key = confirming;
    dialog.current?.close();
    if (!key) return;
    try {
      await api.revokeKey(org.id, key.id);
      setStatus(server?.auth === 'off'
        ? `Key “${key.name}” revoked; it will be refused once authentication is turned on.`
        : `Key “${key.name}” revoked; requests with it are refused from now on.`);
      if (created?.id === key.id) setCreated(null);
      await load();
    } catch (error) {
      errors.take(error);
    }
  };

  const showUsage = async (key: ApiKey) => {
    try {
      const fresh = await api.usage(org.id, key.id);
      setUsage(fresh);
      // The usage call returns the key as of now: refresh its "last used" in the list too.
      setKeys((list) => list?.map((k) => (k.id === fresh.key.id ? fresh.key : k)) ?? list);
    } catch (error) {
      errors.take(error);
    }
  };

  return (
    <section aria-labelledby="keys-title">
      <p class="breadcrumb">Settings <span aria-hidden="true">→</span> API Keys</p>
      <h1 id="keys-title">API Keys</h1>
      <p class="lead">Keys of <strong>{org.name}</strong>. Send one as <code>Authorization: Bearer &lt;key&gt;</code> to <code>/tools/*</code> and <code>/mcp</code>.</p>
      <p role="status" class="status">{status}</p>

      <form class="card inline-form" onSubmit={create} noValidate aria-label="Create an API key">
        <FormError message={errors.form} />
        <Field id="key-name" label="Key name" value={name} onInput={setName} error={errors.fields.name} hint="For example “ci” or “laptop”." />
        <button type="submit" class="primary">Create key</button>
      </form>

      {created && (
        <div class="card created" role="region" aria-label="New API key">
          <h2>Copy your new key now</h2>
          <CopyField id="new-key" label={`API key “${created.name}”`} value={created.key}>
            <p class="warning">This is the only time the key is shown. Store it in a secret manager.</p>
          </CopyField>
          <h3>Try it</h3>
          <CopyBlock id="key-curl" label="Search the directory with curl" value={keySnippets(location.origin, created.key).curl} />
          <CopyBlock id="key-mcp" label="MCP client config (Claude Code .mcp.json, Cursor mcp.json)" value={keySnippets(location.origin, created.key).mcp} />
          {server?.auth === 'off' && <p class="hint">This server runs without authentication, so these work without the key too; with a key, requests count as {org.name}’s.</p>}
          <button type="button" onClick={() => setCreated(null)}>Done</button>
        </div>
      )}

      {keys === null ? <p>Loading keys…</p> : keys.length === 0 ? <p class="empty">No keys yet. Create one above.</p> : (
        <table class="keys">
          <caption class="sr-only">API keys of {org.name}</caption>
          <thead>
            <tr><th scope="col">Name</th><th scope="col">Prefix</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Creator</th><th scope="col">Status</th><th scope="col"><span class="sr-only">Actions</span></th></tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <tr key={key.id} data-key-id={key.id}>
                <th scope="row" data-label="Name">{key.name}</th>
                <td data-label="Prefix"><code>{key.prefix}…</code></td>
                <td data-label="Created"><DateText iso={key.createdAt} /></td>
                <td data-label="Last used"><DateText iso={key.lastUsedAt} /></td>
                <td data-label="Creator" class="creator">{key.createdBy}</td>
                <td data-label="Status">{key.revokedAt ? <span class="badge revoked">Revoked</span> : <span class="badge active">Active</span>}</td>
                <td class="actions">
                  <button type="button" onClick={() => showUsage(key)} aria-label={`Usage of ${key.name}`}>Usage</button>
                  {!key.revokedAt && <button type="button" class="danger" onClick={() => setConfirming(key)} aria-label={`Revoke ${key.name}`}>Revoke</button>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      {usage && (
        <div class="card usage-panel" role="region" aria-label={`Usage of ${usage.key.name}`} ref={usagePanel} tabIndex={-1}>
          <h2>Usage of “{usage.key.name}”</h2>
          <UsageChart days={usage.days} title={usage.key.name} />
          <button type="button" onClick={() => setUsage(null)}>Close usage</button>
        </div>
      )}

      <dialog ref={dialog} aria-labelledby="revoke-title" onClose={() => setConfirming(null)}>
        <h2 id="revoke-title">Revoke “{confirming?.name}”?</h2>
        {server?.auth === 'off' ? (
          <p>
            This server runs without authentication (<code>TOOLDEX_AUTH=off</code>): requests are served with or without a key, so
            clients using <code>{confirming?.prefix}…</code> keep working, as anonymous requests limited per address. Revoking
            stops the key counting as {org.name}’s, and it will be refused once authentication is turned on. This cannot be undone.
          </p>
        ) : (
          <p>Clients using <code>{confirming?.prefix}…</code> get 403 <code>invalid_api_key</code> from their next request. This cannot be undone.</p>
        )}
        <div class="dialog-actions">
          <button type="button" autoFocus onClick={() => dialog.current?.close()}>Cancel</button>
          <button type="button" class="danger" onClick={revoke}>Revoke key</button>
        </div>
      </dialog>
    </section>
  );
}
