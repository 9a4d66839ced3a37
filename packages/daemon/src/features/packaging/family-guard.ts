import type { Request } from 'express';
import type { AppServices } from '../../app.ts';
import { ForgeError } from '../../http/forge-error.ts';
import { familyOf } from '../family/routes.ts';

/**
 * The family member making this request (AuthBot's token check), or 401 FAMILY_AUTH_REQUIRED.
 * Fails closed: with no family feature bound to these services nobody is a family member, so
 * packaging the platform is refused rather than left open.
 */
export function requireFamily(services: AppServices, req: Request): { name: string } {
  const guard = familyOf(services);
  if (!guard) throw new ForgeError('FAMILY_AUTH_REQUIRED');
  return guard.require(req);
}
