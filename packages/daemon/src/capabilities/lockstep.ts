/**
 * Packages released together that refuse to run at different versions: the second of each pair
 * checks, when it loads, that the first is exactly its own version (react-dom's
 * "Incompatible React versions", vue-template-compiler's "Vue packages version mismatch"). Every
 * release of the first has a release of the second with the same number, which is what makes pinning
 * the second to the first's version a safe repair. ScanBot reads the mismatch; RepairBot aligns it.
 */
export const LOCKSTEP_PACKAGES: readonly (readonly [leader: string, follower: string])[] = [
  ['react', 'react-dom'],
  ['vue', 'vue-template-compiler'],
  ['vue', 'vue-server-renderer'],
];

/** The pair [leader, follower] that `a` and `b` form, in either order, or null. */
export function lockstepPair(a: string, b: string): readonly [string, string] | null {
  return LOCKSTEP_PACKAGES.find(([x, y]) => (x === a && y === b) || (x === b && y === a)) ?? null;
}
