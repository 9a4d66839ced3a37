import { currentProject, type ProjectStore } from '../projects/projects.ts';
import { whatChanged } from '../why-red/answer.ts';
import { NO_PROJECT_TEXT } from './operations.ts';

/**
 * The Forge assistant's "what changed since it last worked?": the project's newest build compared
 * with its last green build (features/why-red), about the project asked, else the current one.
 */
export async function forgeChangesText(services: ProjectStore, asked?: string | null): Promise<string> {
  const name = asked ?? currentProject(services.repo);
  if (!name) return NO_PROJECT_TEXT;
  return (await whatChanged(services, name)).text;
}
