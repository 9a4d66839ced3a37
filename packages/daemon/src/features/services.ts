import type { ServerMessage } from '@forge/shared';
import type { BuildRepo } from '../engine/build-repo.ts';
import type { Fleet } from '../engine/fleet/fleet.ts';
import type { PreviewRegistry } from '../capabilities/preview/preview-registry.ts';
import type { ModelClient } from '../capabilities/model/types.ts';
import type { HomeLayout } from '../home-layout.ts';
import type { Logger } from '../logging/logger.ts';
import type { Store } from '../store/store.ts';
import type { BuildService } from './builds/service.ts';
import type { FilesService } from './files/service.ts';
import type { HealthService } from './health/service.ts';
import type { RepairService } from './repairs/service.ts';
import type { SettingsService } from './settings/service.ts';

/**
 * The services app.ts builds before any feature, by the names features ask for them. Types only: a
 * feature that needs several takes a `Pick` of these (its own narrow deps) instead of importing
 * app.ts, which imports every feature. The services listed here are the ones no assistant feature
 * builds on top of, so nothing they import comes back here.
 */
export interface CoreServices {
  health: HealthService;
  settings: SettingsService;
  fleet: Fleet;
  builds: BuildService;
  previews: PreviewRegistry;
  repo: BuildRepo;
  layout: HomeLayout;
  files: FilesService;
  /** RepairBot: proposed and applied repairs, the journal, undo. */
  repairs: RepairService;
  /** The language model the user configured (brain.provider), or null: every assistant works without. */
  model: ModelClient | null;
  store: Store;
  logger: Logger;
  broadcast: (message: ServerMessage) => void;
  /** Send to one /ws connection (its hello `clientId`); false when it is gone. */
  sendTo: (clientId: string, message: ServerMessage) => boolean;
}

/** What a feature that keeps something running (a timer, a model call) hands back to be closed. */
export interface FeatureHandle {
  close?(): void | Promise<void>;
}
