// Runs before the first paint (a plain script in the page's head, allowed by its CSP as 'self'):
// the reader's theme choice on this device, or their device's own for 'system', as data-theme,
// so a dark page never flashes light. web/src/lib/theme.ts keeps it up to date afterwards.
(function () {
  var choice = 'system';
  try {
    choice = localStorage.getItem('toppubs.theme') || 'system';
  } catch {
    // Storage refused (private mode, blocked cookies): the device's theme.
  }
  var dark = choice === 'dark' || (choice !== 'light' && window.matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
})();
