import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';

export interface ShareableStory {
  id: string;
  title?: string | undefined;
  url?: string | undefined;
}

export interface ShareStoryState {
  story: ShareableStory | null;
  open: (story: ShareableStory) => void;
  close: () => void;
}

const ShareStoryContext = createContext<ShareStoryState | null>(null);

export function ShareStoryProvider({ children }: { children: ReactNode }) {
  const [story, setStory] = useState<ShareableStory | null>(null);
  const close = useCallback(() => setStory(null), []);
  const value = useMemo<ShareStoryState>(() => ({ story, open: setStory, close }), [story, close]);
  return <ShareStoryContext.Provider value={value}>{children}</ShareStoryContext.Provider>;
}

/** The share-story modal: `useShareStory().open({ id, title, url })`, `.close()`. */
export function useShareStory(): ShareStoryState {
  const context = useContext(ShareStoryContext);
  if (!context) throw new Error('useShareStory must be used inside AppProviders');
  return context;
}
