/**
 * Saves text as a file through a blob: URL and an anchor with `download`. The renderer has no file
 * system access and needs none: the browser (or Electron's download handling) asks where to save.
 * Blob URLs are same-origin and never touch the network, so the CSP does not get in the way.
 */
export function downloadText(fileName: string, text: string, mime = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type: mime }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Chromium starts the download asynchronously after click(): release the URL only later.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
