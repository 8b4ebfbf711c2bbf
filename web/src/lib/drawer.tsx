import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';

export interface DrawerConfig {
  title: string;
  content: ReactNode;
}

export interface DrawerState {
  /** The drawer is open exactly when a config is set: no separate open flag to disagree with it. */
  config: DrawerConfig | null;
  open: (config: DrawerConfig) => void;
  close: () => void;
}

const DrawerContext = createContext<DrawerState | null>(null);

export function DrawerProvider({ children }: { children: ReactNode }) {
  const [config, setConfig] = useState<DrawerConfig | null>(null);
  const close = useCallback(() => setConfig(null), []);
  const value = useMemo<DrawerState>(() => ({ config, open: setConfig, close }), [config, close]);
  return <DrawerContext.Provider value={value}>{children}</DrawerContext.Provider>;
}

/** The right-hand global drawer: `useDrawer().open({ title, content })`, `.close()`. */
export function useDrawer(): DrawerState {
  const context = useContext(DrawerContext);
  if (!context) throw new Error('useDrawer must be used inside AppProviders');
  return context;
}
