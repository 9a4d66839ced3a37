export { runTui, type RunTuiOptions } from './run-tui.tsx';
export { NO_TTY_MESSAGE, TUI_EXIT } from './constants.ts';
