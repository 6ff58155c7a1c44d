/** Whether a process of this host is alive: a run's lock, a spool file's owner, a temporary output's writer. */
import fs from 'node:fs';

/**
 * Whether a process of this host still exists (one of another user's counts). A zombie — killed,
 * not yet reaped by its parent (`timeout -s KILL`, an init that reaps late) — runs nothing and
 * holds nothing: not alive (Linux's /proc/PID/stat state Z or X; elsewhere signal 0 decides).
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

function isZombie(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' || state === 'X';
  } catch {
    return false;
  }
}
