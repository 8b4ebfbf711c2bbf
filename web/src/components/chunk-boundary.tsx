import { Component, type ErrorInfo, type ReactNode } from 'react';

interface ChunkBoundaryProps {
  /** Rendered instead of the children once they failed (e.g. their code could not be downloaded). */
  fallback: ReactNode;
  children: ReactNode;
}

/**
 * Contains the failure of a lazily loaded part (a menu, a dialog), typically a chunk that a new
 * deployment removed, so it does not take the whole page down with it.
 */
export class ChunkBoundary extends Component<ChunkBoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('A part of the page failed to load', error, info.componentStack);
  }

  override render(): ReactNode {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
