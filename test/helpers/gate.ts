/** A gate: `wait()` resolves once `open()` is called (holds one step of a test until another has happened). */
export function gate(): { open: () => void; wait: () => Promise<void> } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => { open = resolve; });
  return { open, wait: () => opened };
}
