// "Your project": paste a lockfile or manifest, or drop the project's files, and see its direct dependencies at the
// versions it uses (POST /tools/resolve). Each dependency opens the tool page at that exact version.
import { useState } from 'preact/hooks';
import { ApiError, type ProjectFile, type Resolved, type ToolsApi } from './api.ts';
import { hrefOf } from './route.ts';

const MAX_FILES = 20;

export function ProjectBox({ api }: { api: ToolsApi }) {
  const [name, setName] = useState('package-lock.json');
  const [text, setText] = useState('');
  const [dropped, setDropped] = useState<ProjectFile[]>([]);
  const [answer, setAnswer] = useState<Resolved | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [over, setOver] = useState(false);

  const readFiles = async (list: FileList | null) => {
    const files = [...(list ?? [])].slice(0, MAX_FILES);
    setDropped(await Promise.all(files.map(async (file) => ({ name: file.name, content: await file.text() }))));
  };

  const resolve = async (event: Event) => {
    event.preventDefault();
    const files = dropped.length ? dropped : text.trim() ? [{ name: name.trim(), content: text }] : [];
    if (!files.length) {
      setError('Paste a lockfile or manifest (and say its file name), or drop the project\'s files here.');
      return;
    }
    setBusy(true);
    setError('');
    try {
      setAnswer(await api.resolve(files));
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'Reading the project failed.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="project-title" class={`card project-box${over ? ' drop-over' : ''}`}
      onDragOver={(event) => { event.preventDefault(); setOver(true); }} onDragLeave={() => setOver(false)}
      onDrop={(event) => { event.preventDefault(); setOver(false); void readFiles(event.dataTransfer?.files ?? null); }}>
      <h2 id="project-title">Your project</h2>
      <p class="hint">Drop or choose its lockfiles (package-lock.json, pnpm-lock.yaml, yarn.lock with package.json, poetry.lock, uv.lock,
        requirements.txt, Cargo.lock, go.mod, Gemfile.lock…) or paste one: see each dependency at the version you use.</p>
      <form onSubmit={resolve} noValidate>
        <label for="project-files">Files</label>
        <input id="project-files" type="file" multiple onChange={(event) => void readFiles((event.target as HTMLInputElement).files)} />
        {dropped.length > 0 && <p class="muted" role="status">{dropped.map((f) => f.name).join(', ')}</p>}
        <label for="project-name">…or paste one, named</label>
        <input id="project-name" value={name} onInput={(event) => setName((event.target as HTMLInputElement).value)} autoComplete="off" />
        <label for="project-text" class="sr-only">File contents</label>
        <textarea id="project-text" rows={6} value={text} placeholder="Paste the file here" spellcheck={false}
          onInput={(event) => setText((event.target as HTMLTextAreaElement).value)} aria-describedby={error ? 'project-error' : undefined} />
        <button type="submit" class="primary" disabled={busy}>{busy ? 'Reading…' : 'Show dependencies'}</button>
      </form>
      {error && <p id="project-error" class="field-error" role="alert">{error}</p>}
      {answer && !busy && (
        <div class="project-answer">
          <p class="muted">{answer.counts.direct} direct and {answer.counts.transitive} transitive dependencies from {answer.files.map((f) => `${f.file} (${f.format})`).join(', ')}.
            Agents pass <code>{answer.project}</code> as <code>project</code> to docs and context calls until {new Date(answer.expiresAt).toLocaleDateString()}.</p>
          {answer.notes.map((note) => <p key={note} class="hint">{note}</p>)}
          <table class="dependencies">
            <caption class="sr-only">Direct dependencies</caption>
            <thead><tr><th scope="col">Package</th><th scope="col">Version</th><th scope="col">Newest</th><th scope="col">Docs</th></tr></thead>
            <tbody>
              {answer.dependencies.map((d) => (
                <tr key={`${d.slug}@${d.version}`}>
                  <th scope="row"><a href={hrefOf({ page: 'tool', ref: d.version ? `${d.slug}@${d.version}` : d.slug })}>{d.name}</a>{d.dev && <span class="badge">dev</span>}</th>
                  <td>{d.version ?? d.requested ?? '–'}</td>
                  <td>{d.latest ?? '–'}{d.latest && d.version && d.latest !== d.version && <span class="sr-only"> (newer than yours)</span>}</td>
                  <td>{d.docsIndexed ? 'indexed' : 'on first question'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
