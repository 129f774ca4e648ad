/**
 * Hands a CSV string to the person as a file download. The renderer has no file system; a Blob URL
 * with <a download> works in Electron and in the browser host alike, and never touches the network.
 */
export function downloadCsv(fileName: string, csv: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoke later: Chromium starts the download asynchronously after click().
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
