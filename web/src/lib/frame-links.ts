/** True when the page is shown inside a frame (another page embeds it). */
export function isInFrame(win: Window = window): boolean {
  try {
    return win.self !== win.top;
  } catch {
    // A cross-origin parent can make window.top unreadable: that is a frame too.
    return true;
  }
}

function retarget(link: HTMLAnchorElement): void {
  // New-tab links already leave the frame; everything else opens in the parent window.
  if (link.target !== '_blank' && link.target !== '_top') link.target = '_top';
}

function retargetWithin(node: Node): void {
  if (!(node instanceof Element)) return;
  if (node instanceof HTMLAnchorElement) retarget(node);
  node.querySelectorAll('a').forEach(retarget);
}

/**
 * Give every link under `root` target="_top", including links added later (partner sites show pages in frames:
 * a page shown inside a frame has its links retargeted to the parent window). Returns a cleanup.
 */
export function retargetLinksToTop(root: Element = document.body): () => void {
  retargetWithin(root);
  const observer = new MutationObserver((mutations) => {
    for (const mutation of mutations) {
      if (mutation.type === 'childList') mutation.addedNodes.forEach(retargetWithin);
      else if (mutation.target instanceof HTMLAnchorElement) retarget(mutation.target);
    }
  });
  observer.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ['target'] });
  return () => observer.disconnect();
}
