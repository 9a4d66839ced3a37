import { readdir, readFile, readlink } from 'node:fs/promises';

/**
 * The TCP ports a server app listens on, read from Linux's /proc: the processes of its process group
 * and their descendants (a child that left the group with setsid is still its descendant), the
 * socket inodes their file descriptors hold, and the LISTEN rows of /proc/<pid>/net/tcp and tcp6
 * with those inodes. Only sockets of the app's own processes count, so a port another program
 * listens on is never taken for the app's. Inside the bubblewrap sandbox the app has its own pid
 * namespace but the host's network; from here its processes have host pids, bwrap stays in the
 * runner's process group, and /proc shows both.
 */

export interface ListeningSocket {
  port: number;
  /** The address it is bound to, as written in a URL host: "127.0.0.1", "0.0.0.0", "::", "::1". */
  address: string;
  family: 4 | 6;
}

/** The state column of /proc/net/tcp for a listening socket. */
const TCP_LISTEN = '0A';

/** pid, parent pid and process group of every process, from /proc/<pid>/stat. */
async function processTable(): Promise<Array<{ pid: number; ppid: number; pgrp: number }>> {
  const entries = await readdir('/proc');
  const rows = await Promise.all(
    entries
      .filter((entry) => /^\d+$/.test(entry))
      .map(async (entry) => {
        try {
          const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
          // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses; read after the last ")".
          const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
          return { pid: Number(entry), ppid: Number(fields[1]), pgrp: Number(fields[2]) };
        } catch {
          return null; // Exited while we looked.
        }
      }),
  );
  return rows.filter((row) => row !== null);
}

/** The pids of process group `pgid` and of every descendant of its members. */
export async function appProcesses(pgid: number): Promise<number[]> {
  const table = await processTable();
  const members = new Set(table.filter((p) => p.pgrp === pgid || p.pid === pgid).map((p) => p.pid));
  const children = new Map<number, number[]>();
  for (const p of table) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  const queue = [...members];
  while (queue.length > 0) {
    for (const child of children.get(queue.pop()!) ?? []) {
      if (members.has(child)) continue;
      members.add(child);
      queue.push(child);
    }
  }
  return [...members];
}

/** Socket inodes held open by `pids` ("socket:[12345]" links in /proc/<pid>/fd). */
async function socketInodes(pids: readonly number[]): Promise<Set<string>> {
  const inodes = new Set<string>();
  await Promise.all(
    pids.map(async (pid) => {
      let fds: string[];
      try {
        fds = await readdir(`/proc/${pid}/fd`);
      } catch {
        return; // Gone, or not ours to read.
      }
      await Promise.all(
        fds.map(async (fd) => {
          try {
            const target = await readlink(`/proc/${pid}/fd/${fd}`);
            const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
            if (inode) inodes.add(inode);
          } catch {
            // Closed meanwhile.
          }
        }),
      );
    }),
  );
  return inodes;
}

/** "0100007F" (little-endian words, as the kernel prints them) → "127.0.0.1"; 32 digits → IPv6. */
export function decodeAddress(hex: string): { address: string; family: 4 | 6 } {
  const words = hex.match(/.{8}/g) ?? [];
  const bytes = words.flatMap((word) => (word.match(/../g) ?? []).reverse().map((b) => parseInt(b, 16)));
  if (bytes.length === 4) return { address: bytes.join('.'), family: 4 };
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  // IPv4-mapped (::ffff:a.b.c.d): the IPv4 address is what a client connects to.
  if (groups.slice(0, 5).every((g) => g === '0') && groups[5] === 'ffff') {
    return { address: bytes.slice(12).join('.'), family: 4 };
  }
  return { address: compressIpv6(groups), family: 6 };
}

/** The longest run of zero groups as "::" (RFC 5952). */
function compressIpv6(groups: string[]): string {
  let best = { start: -1, length: 0 };
  for (let i = 0; i < groups.length;) {
    if (groups[i] !== '0') {
      i += 1;
      continue;
    }
    let j = i;
    while (j < groups.length && groups[j] === '0') j += 1;
    if (j - i > best.length && j - i > 1) best = { start: i, length: j - i };
    i = j;
  }
  if (best.start < 0) return groups.join(':');
  const head = groups.slice(0, best.start).join(':');
  const tail = groups.slice(best.start + best.length).join(':');
  return `${head}::${tail}`;
}

/** Listening rows of a /proc/net/tcp{,6} text whose inode is in `inodes`. */
export function parseListening(text: string, inodes: ReadonlySet<string> | null): ListeningSocket[] {
  const sockets: ListeningSocket[] = [];
  for (const row of text.split('\n').slice(1)) {
    const cols = row.trim().split(/\s+/);
    // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
    if (cols.length < 10 || cols[3] !== TCP_LISTEN) continue;
    if (inodes && !inodes.has(cols[9]!)) continue;
    const [hex, portHex] = cols[1]!.split(':');
    if (!hex || !portHex) continue;
    sockets.push({ ...decodeAddress(hex), port: parseInt(portHex, 16) });
  }
  return sockets;
}

/**
 * The listening TCP sockets of process group `pgid` (and its descendants), lowest port first; null
 * where this cannot be known (no /proc: not Linux).
 */
export async function listeningSockets(pgid: number): Promise<ListeningSocket[] | null> {
  // The app's own network namespace (the sandbox shares the host's; a container of its own would not).
  const tables = await Promise.all(
    ['tcp', 'tcp6'].map((name) =>
      readFile(`/proc/${pgid}/net/${name}`, 'utf8').catch(() =>
        readFile(`/proc/net/${name}`, 'utf8').catch(() => null),
      ),
    ),
  );
  if (tables.every((t) => t === null)) return null;
  const inodes = await socketInodes(await appProcesses(pgid));
  if (inodes.size === 0) return [];
  const seen = new Set<string>();
  return tables
    .flatMap((text) => (text === null ? [] : parseListening(text, inodes)))
    .filter((s) => {
      const key = `${s.address}:${s.port}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => a.port - b.port);
}
