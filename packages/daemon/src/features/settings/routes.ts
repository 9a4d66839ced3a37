import type { Router } from 'express';
import { routes } from '@forge/shared';
import { defineRoute } from '../../http/define-route.ts';
import type { SettingsService } from './service.ts';

export function registerSettingsRoutes(router: Router, deps: { settings: SettingsService }): void {
  defineRoute(router, routes.getSettings, () => deps.settings.get());
  // Unknown keys, __proto__, two keys or a wrong type: one catalogue answer, nothing written.
  defineRoute(router, routes.updateSetting, ({ body }) => deps.settings.update(body), {
    invalidBodyCode: 'UNKNOWN_SETTING',
  });
}
