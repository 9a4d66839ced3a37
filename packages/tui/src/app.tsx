import { useApp, useInput } from 'ink';
import type { TuiClient } from './client.ts';
import { Header } from './components/header.tsx';
import { HintBar, type KeyHint } from './components/hint-bar.tsx';
import { Screen } from './components/screen.tsx';
import { ForgeProvider } from './hooks/use-forge.tsx';
import { HomeView } from './views/home-view.tsx';

/** Keys of the shell; panes added later extend this list (tab, u, b, c, o, p, f). */
const HINTS: readonly KeyHint[] = [{ key: 'q', label: 'quit' }];

export interface AppProps {
  client: TuiClient;
}

/** The dashboard. The client comes in as a prop so tests can hand it a fake. */
export function App({ client }: AppProps) {
  return (
    <ForgeProvider client={client}>
      <Keys />
      <Screen header={<Header />} footer={<HintBar hints={HINTS} />}>
        <HomeView />
      </Screen>
    </ForgeProvider>
  );
}

function Keys() {
  const { exit } = useApp();
  useInput((input) => {
    if (input === 'q') exit();
  });
  return null;
}
