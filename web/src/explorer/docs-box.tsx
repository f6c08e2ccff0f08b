// Ask a tool's documentation: a question box and the ranked passages search_docs returns, each with its heading
// trail, the symbol it documents, whether that is deprecated or internal, and a link to its source; code in passages
// is shown as code, the rest as text.
import { useState } from 'preact/hooks';
import { ApiError, type DocsAnswer, type Passage, type ToolsApi } from './api.ts';

export function DocsBox({ api, reference, name }: { api: ToolsApi; reference: string; name: string }) {
  const [question, setQuestion] = useState('');
  const [answer, setAnswer] = useState<DocsAnswer | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  const ask = async (event: Event) => {
    event.preventDefault();
    if (!question.trim()) {
      setError('Type a question, for example “how do I make a field optional”.');
      return;
    }
    setBusy(true);
    setError('');
    try {
      setAnswer(await api.docs(reference, question.trim()));
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'Asking the docs failed.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="docs-title" class="card">
      <h2 id="docs-title">Ask the docs of {name}</h2>
      <form class="ask-form" onSubmit={ask} noValidate>
        <label for="question" class="sr-only">Your question</label>
        <input id="question" type="search" placeholder="e.g. how do I set a timeout?" value={question} autoComplete="off"
          onInput={(event) => setQuestion((event.target as HTMLInputElement).value)} aria-describedby={error ? 'question-error' : undefined} />
        <button type="submit" class="primary" disabled={busy}>{busy ? 'Asking…' : 'Ask'}</button>
      </form>
      {error && <p id="question-error" class="field-error" role="alert">{error}</p>}
      {busy && <p class="muted" role="status">Searching the documentation (the first question about a version indexes it)…</p>}
      {answer && !busy && (
        answer.results.length === 0
          ? <p class="empty" role="status">No passage matched; ask with other words.</p>
          : (
            <ol class="passages" aria-label={`Passages answering “${answer.query}”`}>
              {answer.results.map((passage, i) => (
                <li key={`${passage.url}-${i}`} class="passage">
                  <h3>{passage.headings?.length ? passage.headings.join(' › ') : (passage.title ?? 'Passage')}</h3>
                  <PassageLabels passage={passage} />
                  <a class="source" href={passage.url} rel="noreferrer">{passage.url}</a>
                  <PassageText text={passage.content} />
                </li>
              ))}
            </ol>
          )
      )}
    </section>
  );
}

/** The symbol as code and the deprecated/internal badges, as words (not colour alone); nothing when none is set. */
function PassageLabels({ passage }: { passage: Passage }) {
  if (!passage.symbol && !passage.deprecated && !passage.internal && !passage.flags?.length) return null;
  return (
    <p class="passage-labels">
      {passage.symbol && <><span class="sr-only">Symbol: </span><code class="symbol">{passage.symbol}</code></>}
      {passage.deprecated && <span class="tag tag-deprecated" title="Its authors mark this deprecated or legacy">deprecated</span>}
      {passage.internal && <span class="tag tag-internal" title="From the package's internals, not its public API">internal</span>}
      {passage.flags?.map((flag) => (
        <span key={flag} class="tag tag-deprecated" title={flag === 'agent-directed' ? 'Its text addresses an AI agent rather than the reader' : 'It holds text a reader of the page does not see'}>{flag}</span>
      ))}
    </p>
  );
}

/** Fenced code blocks as <pre>, everything else as wrapped text. */
function PassageText({ text }: { text: string }) {
  const parts = text.split(/^```[^\n]*\n?/m);
  return (
    <div class="passage-text">
      {parts.map((part, i) => (part.trim() === '' ? null : i % 2 === 1
        ? <pre key={i} class="code"><code>{part.replace(/\n$/, '')}</code></pre>
        : <p key={i}>{part.trim()}</p>))}
    </div>
  );
}
