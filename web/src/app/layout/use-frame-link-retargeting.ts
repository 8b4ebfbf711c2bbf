import { useEffect } from 'react';
import { isInFrame, retargetLinksToTop } from '../../lib/frame-links';

/** Inside a frame, every link on the page (now and later) opens in the parent window. */
export function useFrameLinkRetargeting(): void {
  useEffect(() => {
    if (!isInFrame()) return;
    return retargetLinksToTop(document.body);
  }, []);
}
