import {
  Bot,
  Braces,
  FolderTree,
  LayoutDashboard,
  NotebookPen,
  Settings,
  SquareTerminal,
  Workflow,
  type LucideIcon,
} from 'lucide-react';
import { APP_PATHS } from '@/lib/app-paths.ts';

export interface NavItem {
  label: string;
  to: string;
  icon: LucideIcon;
  /**
   * A second entry for a route another entry already owns (docs/product.md#routes-and-navigation: Automation
   * → /bot-factory). It links there but is not marked current, so one route never lights up two entries.
   */
  alias?: boolean;
}

/** The left navigation (docs/product.md#routes-and-navigation), in its order. */
export const NAV_ITEMS: readonly NavItem[] = [
  { label: 'Dashboard', to: APP_PATHS.dashboard, icon: LayoutDashboard },
  { label: 'File Explorer', to: APP_PATHS.fileExplorer, icon: FolderTree },
  { label: 'Code Generator', to: APP_PATHS.codeGenerator, icon: Braces },
  { label: 'Description Pad', to: APP_PATHS.descriptionPad, icon: NotebookPen },
  { label: 'Settings', to: APP_PATHS.settings, icon: Settings },
  { label: 'Bot Factory', to: APP_PATHS.botFactory, icon: Bot },
  { label: 'Automation', to: APP_PATHS.botFactory, icon: Workflow, alias: true },
  { label: 'Console', to: APP_PATHS.console, icon: SquareTerminal },
];
