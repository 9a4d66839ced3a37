import type { AppServices } from '../../app.ts';
import type { FamilyGuard, FamilyService } from './service.ts';

export type { FamilyGuard } from './service.ts';

/**
 * AuthBot's guard of an app, once registerFamilyRoutes has run (it is registered first among the
 * features). Other features protect a route with `familyOf(services)?.require(req)`.
 */
const guards = new WeakMap<AppServices, FamilyService>();

export function bindFamily(services: AppServices, family: FamilyService): void {
  guards.set(services, family);
}

export const familyOf = (services: AppServices): FamilyGuard | null => guards.get(services) ?? null;

/** The family service itself (routes of this feature). */
export const familyServiceOf = (services: AppServices): FamilyService | null => guards.get(services) ?? null;
