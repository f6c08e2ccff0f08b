// A spinner on stderr while the CLI waits for the server: only when stderr is a terminal, never on stdout,
// and only after a short delay so quick answers do not flicker.
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export async function withSpinner<T>(label: string, work: Promise<T>, stream: NodeJS.WriteStream = process.stderr): Promise<T> {
  if (!stream.isTTY) return work;
  const started = Date.now();
  let frame = 0;
  let shown = false;
  let ticker: NodeJS.Timeout | undefined;
  const draw = () => {
    shown = true;
    const elapsed = Math.round((Date.now() - started) / 1000);
    stream.write(`\r\x1b[K${FRAMES[frame++ % FRAMES.length]} ${label}${elapsed >= 2 ? ` ${elapsed} s` : ''}`);
  };
  const delay = setTimeout(() => {
    draw();
    ticker = setInterval(draw, 100);
  }, 300);
  try {
    return await work;
  } finally {
    clearTimeout(delay);
    clearInterval(ticker);
    if (shown) stream.write('\r\x1b[K');
  }
}
