import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';

export interface LoginModalState {
  isOpen: boolean;
  open: () => void;
  close: () => void;
}

const LoginModalContext = createContext<LoginModalState | null>(null);

export function LoginModalProvider({ children }: { children: ReactNode }) {
  const [isOpen, setOpen] = useState(false);
  const open = useCallback(() => setOpen(true), []);
  const close = useCallback(() => setOpen(false), []);
  const value = useMemo<LoginModalState>(() => ({ isOpen, open, close }), [isOpen, open, close]);
  return <LoginModalContext.Provider value={value}>{children}</LoginModalContext.Provider>;
}

/** Open or close the shell's login modal from anywhere under AppProviders. */
export function useLoginModal(): LoginModalState {
  const context = useContext(LoginModalContext);
  if (!context) throw new Error('useLoginModal must be used inside AppProviders');
  return context;
}
