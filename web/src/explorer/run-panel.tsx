// The Run button: sends the quickstart's exact test request to the sandbox (POST /tools/test, or as the signed-in
// user's organisation) and shows the status, exit code, timings, stdout and stderr; rate limits say when to retry.
import { useState } from 'preact/hooks';
import { ApiError, type Access, type TestRun, type ToolsApi } from './api.ts';

export function RunPanel({ api, request, access }: { api: ToolsApi; request: Record<string, unknown> | null; access: Access }) {
  const [run, setRun] = useState<TestRun | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  if (!request) return <p class="hint">No runnable quickstart for this version.</p>;

  const start = async () => {
    setBusy(true);
    setError('');
    setRun(null);
    try {
      setRun(await api.test(request));
    } catch (failure) {
      if (failure instanceof ApiError && failure.code === 'rate_limited') {
        setError(`${failure.message} (${access.server.testRunsPerMinute} runs a minute on this server.)`);
      } else setError(failure instanceof ApiError ? failure.message : 'The run failed to start.');
    } finally {
      setBusy(false);
    }
  };

  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return (
    <div class="run">
      <div class="run-bar">
        <button type="button" class="primary" onClick={start} disabled={busy} aria-describedby="run-hint">{busy ? 'Running…' : 'Run quickstart'}</button>
        <span id="run-hint" class="hint">
          Installs {String((request.packages as string[] | undefined)?.join(', ') ?? 'the packages')} and runs it in the sandbox
          {access.org ? ` as ${access.org.name}` : ''}.
        </span>
      </div>
      {busy && <p class="muted" role="status">Installing and running in the sandbox…</p>}
      {error && <p class="form-error" role="alert">{error}</p>}
      {run && (
        <div class="run-result" role="status" aria-live="polite">
          <p>
            <span class={`badge ${run.ok ? 'active' : 'revoked'}`} data-status={run.status}>{run.ok ? '✓ ran' : `✗ ${run.status}`}</span>
            {run.exitCode !== null && <span class="hint"> exit {run.exitCode}</span>}
            <span class="hint"> · provision {seconds(run.phases.provisionMs)} · install {seconds(run.phases.installMs)} · run {seconds(run.phases.runMs)}</span>
          </p>
          {run.error && <p class="form-error">{run.error.code}: {run.error.message}</p>}
          <h3>stdout</h3>
          <pre class="output" aria-label="stdout">{run.stdout || '(nothing)'}</pre>
          {run.stderr && <><h3>stderr</h3><pre class="output stderr" aria-label="stderr">{run.stderr}</pre></>}
          <p class="hint">Session <code>{run.sessionId}</code>: pass it as <code>sessionId</code> to reuse the installed packages.</p>
        </div>
      )}
    </div>
  );
}
