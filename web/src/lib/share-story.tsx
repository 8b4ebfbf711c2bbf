import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';

/** What the share modal opens with: a story's address to share, or nothing (an empty form). */
export interface ShareableStory {
  id?: string | undefined;
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

/** The share-story modal: `useShareStory().open({ url })` (or `open({})` for an empty form), `.close()`. */
export function useShareStory(): ShareStoryState {
  const context = useContext(ShareStoryContext);
  if (!context) throw new Error('useShareStory must be used inside AppProviders');
  return context;
}
