/**
 * A batch file travels to main whole, as base64 (the contract's shape): main reads it with the same
 * reader as the CLI and trusts nothing the screen worked out. FileReader encodes natively, in one step
 * for a file of tens of megabytes, where a string built byte by byte in script would take seconds.
 */
export function base64Of(bytes: Uint8Array): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(new Error('the file could not be encoded to be sent to the app'));
    reader.readAsDataURL(new Blob([bytes as BlobPart]));
  });
}
