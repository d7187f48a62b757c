/**
 * How `ntv-node run` learns that it should stop (docs/operations.md "Stopping"; issue 41 item 4):
 * SIGINT or SIGTERM, however the node was started. Started as `npm start`, the script `exec`s the
 * node (package.json), so npm's forwarded signal reaches the node itself rather than a shell that
 * dies and leaves the node running; npm waits for it and exits with its status. Started through a
 * launcher that does not exec (`npx ntv-node run` runs `sh -c`), a signal to the launcher kills the
 * shell between them, and the node would be left holding the RPC port and the database lock: so a
 * node started from an npm script also stops when its parent exits.
 */

/**
 * A second signal of the same name within this many milliseconds of the first is the same stop
 * request delivered twice: a terminal's Ctrl-C reaches the whole process group, npm and the node,
 * and npm forwards its copy to the node. A person's second Ctrl-C or kill comes later than this.
 */
const DUPLICATE_WINDOW_MS = 500;

/** How often the parent process is checked when the node runs under an npm launcher. */
const LAUNCHER_POLL_MS = 1000;

/**
 * SIGINT/SIGTERM from now on: the first is handed to the stop routine given later (at once if it
 * already came, e.g. during start-up); a second while the shutdown runs exits at once with 130,
 * unless it is the first one's duplicate. Under an npm launcher (npm sets `npm_lifecycle_event`
 * for `npm start` and `npx`), the launcher's exit counts as a SIGTERM.
 */
export function shutdownSignals(): (stop: (signal: string) => void) => void {
  let signalled: { signal: string; at: number } | undefined;
  let onSignal: ((signal: string) => void) | undefined;
  const handler = (signal: string) => {
    if (signalled !== undefined) {
      if (signal === signalled.signal && Date.now() - signalled.at < DUPLICATE_WINDOW_MS) return;
      process.stderr.write(`second ${signal}: exiting without waiting for the shutdown\n`);
      process.exit(130);
    }
    signalled = { signal, at: Date.now() };
    onSignal?.(signal);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  watchLauncher(() => {
    if (signalled === undefined) handler('SIGTERM');
  });
  return (stop) => {
    onSignal = stop;
    if (signalled !== undefined) stop(signalled.signal);
  };
}

/**
 * Under an npm launcher, calls `gone` once the parent process has exited (this process is then
 * re-parented, so its parent pid changes). Not otherwise: a node started by a supervisor, systemd or
 * a shell that exits on purpose (`nohup`, `setsid`) keeps running as it was asked to.
 */
function watchLauncher(gone: () => void): void {
  if (process.env['npm_lifecycle_event'] === undefined) return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    process.stderr.write(`the launcher (pid ${parent}) exited: stopping as on SIGTERM\n`);
    gone();
  }, LAUNCHER_POLL_MS);
  // Never the reason the process stays alive.
  timer.unref();
}

/**
 * Runs `stop` and resolves when it finishes, or calls `overdue` once `graceMs` have passed without
 * it (issue 46 item 5, "SIGTERM is always honoured"; docs/operations.md "Stopping"). A graceful
 * stop waits for the block under way and the writes posted so far; on a disk that stopped
 * answering that wait has no end, and a supervisor's SIGTERM would go unheard until its SIGKILL.
 * Exiting then is what the kill would do, which storage survives (whole blocks only,
 * docs/storage.md). The timer never keeps the process alive by itself.
 */
export function stopWithin(stop: () => Promise<void>, graceMs: number, overdue: () => void): Promise<void> {
  const timer = setTimeout(overdue, graceMs);
  timer.unref();
  return stop().finally(() => clearTimeout(timer));
}
