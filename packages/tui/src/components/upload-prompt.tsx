import { Box, Text } from 'ink';

export interface PromptState {
  value: string;
  /** Names listed after a tab that matched several entries. */
  candidates: string[];
  /** Why the typed path cannot be uploaded (or that nothing matched the tab). */
  error: string | null;
}

/**
 * The `u` prompt: a path relative to the working folder, tab completes folders and .zip files,
 * enter uploads, esc cancels. The second line lists completions, an error, or the keys.
 */
export function UploadPrompt({ prompt, cwd, width }: { prompt: PromptState; cwd: string; width: number }) {
  return (
    <Box width={width} height={2} flexShrink={0} flexDirection="column" paddingX={1} overflow="hidden">
      <Text wrap="truncate-start">
        <Text bold color="cyan">
          Upload ZIP ›{' '}
        </Text>
        {prompt.value}
        <Text inverse> </Text>
      </Text>
      {prompt.error ? (
        <Text color="red" wrap="truncate-end">
          {prompt.error}
        </Text>
      ) : prompt.candidates.length > 0 ? (
        <Text wrap="truncate-end">{prompt.candidates.join('  ')}</Text>
      ) : (
        <Text dimColor wrap="truncate-end">
          tab completes · enter uploads · esc cancels · relative to {cwd}
        </Text>
      )}
    </Box>
  );
}
