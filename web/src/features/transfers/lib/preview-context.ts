import { createContext, useContext } from 'react';

/**
 * Opens a file's preview (FilePreviews, around a package's cards). Null outside one: the cards
 * then show no Preview button.
 */
export const OpenPreviewContext = createContext<((fileId: string) => void) | null>(null);

export const useOpenPreview = () => useContext(OpenPreviewContext);
