import { Box, Text } from 'ink';

export type NoticeTone = 'info' | 'success' | 'warn' | 'error';

export interface Notice {
  tone: NoticeTone;
  text: string;
}

const TONE_COLOR: Record<NoticeTone, string | undefined> = {
  info: undefined,
  success: 'green',
  warn: 'yellow',
  error: 'red',
};

/** One line above the hint bar: the latest notice (what a key did, or why it could not). */
export function StatusLine({ notice, width }: { notice: Notice | null; width: number }) {
  return (
    <Box width={width} height={1} flexShrink={0} paddingX={1} overflow="hidden">
      {notice && (
        <Text color={TONE_COLOR[notice.tone]} wrap="truncate-end">
          {notice.text}
        </Text>
      )}
    </Box>
  );
}
