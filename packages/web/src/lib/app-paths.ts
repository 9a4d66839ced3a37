/**
 * Browser routes of docs/product.md#routes-and-navigation, written once: the router and the navigation both
 * read them.
 */
export const APP_PATHS = {
  dashboard: '/',
  dashboardAlias: '/dashboard',
  fileExplorer: '/file-explorer',
  settings: '/settings',
  console: '/console',
  botFactory: '/bot-factory',
  codeGenerator: '/code-generator',
  descriptionPad: '/description-pad',
  login: '/login',
  university: '/university',
} as const;

/**
 * University tabs by path (docs/product.md#other-screens); '' is the platform controls at /university itself.
 */
export const UNIVERSITY_TABS = [
  { tab: '', label: 'Platform' },
  { tab: 'chat', label: 'Family chat' },
  { tab: 'memory', label: 'Memory' },
  { tab: 'bots', label: 'Swarm' },
] as const;

export type UniversityTab = (typeof UNIVERSITY_TABS)[number]['tab'];

export const isUniversityTab = (value: string): value is UniversityTab =>
  UNIVERSITY_TABS.some((t) => t.tab === value);

export const universityPath = (tab: UniversityTab): string =>
  tab ? `${APP_PATHS.university}/${tab}` : APP_PATHS.university;
