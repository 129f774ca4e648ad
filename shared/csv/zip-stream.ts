/**
 * A zip file written as it goes (what an .xlsx is): entries one after another, each deflated while its
 * bytes arrive, so a workbook of a million rows never has to exist whole in memory — neither its XML
 * nor, if the sink passes the bytes on, the file.
 *
 * Deflating is the platform's (CompressionStream, in Chromium's workers and in Node alike), asked for
 * the gzip format: gzip's trailer carries the CRC-32 and size a zip entry needs, so no checksum is
 * computed here. Of each gzip stream the 10-byte header and 8-byte trailer are dropped and the raw
 * deflate data in between is the entry's; sizes and CRC follow each entry in a data descriptor (the
 * entry's header is written before they are known) and again in the central directory at the end.
 *
 * Without Zip64, an entry or the whole file holds less than 4 GiB: past that the writer refuses with
 * a sentence, rather than writing a file nothing can open. (An Excel sheet holds at most 1,048,576
 * rows, which stays well under it at the widths exports have.)
 */

/** Receives the file's bytes in order; may return a promise to slow the writer down. */
export type ZipSink = (chunk: Uint8Array) => void | Promise<void>;

export interface ZipEntryWriter {
  /** Adds bytes (or text, written as UTF-8) to the entry; resolves when there is room for more. */
  write(data: Uint8Array<ArrayBuffer> | string): Promise<void>;
  /** Ends the entry. */
  close(): Promise<void>;
}

export interface ZipWriter {
  /** Starts the next entry (the previous one must be closed). */
  entry(name: string): ZipEntryWriter;
  /** Writes the central directory; the file is complete once this resolves. */
  finish(): Promise<void>;
}

const LIMIT = 0xffff_ffff;
const encoder = new TextEncoder();

interface Written {
  name: Uint8Array;
  offset: number;
  crc: number;
  compressed: number;
  size: number;
}

/** Too big for a zip without Zip64: a sentence that says what to do. */
export class ZipTooLargeError extends Error {
  override name = 'ZipTooLargeError';
  constructor() {
    super('The file would be larger than 4 GB, more than a workbook can hold. Export fewer rows or columns.');
  }
}

function header(sig: number, size: number): { bytes: Uint8Array; view: DataView } {
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, sig, true);
  return { bytes, view };
}

// 1980-01-01 00:00 in DOS time: entries carry no time of their own (the workbook's is in its XML).
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
// Bit 3: sizes and CRC follow the data; bit 11: the name is UTF-8.
const FLAGS = 0x0808;

export function createZipWriter(sink: ZipSink): ZipWriter {
  let offset = 0;
  let open = false;
  const entries: Written[] = [];

  const emit = async (bytes: Uint8Array) => {
    offset += bytes.length;
    if (offset > LIMIT) throw new ZipTooLargeError();
    await sink(bytes);
  };

  return {
    entry(nameText) {
      if (open) throw new Error('the previous zip entry is still open');
      open = true;
      const name = encoder.encode(nameText);
      const start = offset;
      let size = 0;
      let compressed = 0;
      let crc = 0;
      const local = header(0x04034b50, 30 + name.length);
      local.view.setUint16(4, 20, true);
      local.view.setUint16(6, FLAGS, true);
      local.view.setUint16(8, 8, true);
      local.view.setUint16(10, DOS_TIME, true);
      local.view.setUint16(12, DOS_DATE, true);
      local.view.setUint16(26, name.length, true);
      local.bytes.set(name, 30);
      const started = emit(local.bytes);

      const gzip = new CompressionStream('gzip');
      const input = gzip.writable.getWriter();
      // The gzip header is dropped as it arrives; the last 8 bytes seen are held back, as they may be
      // the trailer (CRC-32, size).
      let head = 0;
      let tail = new Uint8Array(0);
      const pump = (async () => {
        await started;
        const reader = gzip.readable.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          let chunk = value;
          if (head < 10) {
            const take = Math.min(10 - head, chunk.length);
            // FLG (byte 3) must be 0: no name, comment or extra fields to skip.
            if (head <= 3 && head + take > 3 && chunk[3 - head] !== 0)
              throw new Error('unexpected gzip header from CompressionStream');
            head += take;
            chunk = chunk.subarray(take);
          }
          if (chunk.length === 0) continue;
          const joined = new Uint8Array(tail.length + chunk.length);
          joined.set(tail);
          joined.set(chunk, tail.length);
          const out = joined.subarray(0, Math.max(0, joined.length - 8));
          tail = joined.slice(joined.length - Math.min(8, joined.length));
          if (out.length > 0) {
            compressed += out.length;
            await emit(out);
          }
        }
        if (tail.length !== 8) throw new Error('the gzip stream ended without its trailer');
        crc = new DataView(tail.buffer, tail.byteOffset).getUint32(0, true);
      })();
      // A failure of the pump surfaces in write/close; until then it must not go unhandled.
      pump.catch(() => undefined);

      return {
        async write(data) {
          const bytes = typeof data === 'string' ? encoder.encode(data) : data;
          if (bytes.length === 0) return;
          size += bytes.length;
          if (size > LIMIT) throw new ZipTooLargeError();
          await Promise.race([input.ready, pump]);
          void input.write(bytes).catch(() => undefined);
        },
        async close() {
          await input.close();
          await pump;
          const descriptor = header(0x08074b50, 16);
          descriptor.view.setUint32(4, crc, true);
          descriptor.view.setUint32(8, compressed, true);
          descriptor.view.setUint32(12, size, true);
          await emit(descriptor.bytes);
          entries.push({ name, offset: start, crc, compressed, size });
          open = false;
        },
      };
    },

    async finish() {
      if (open) throw new Error('a zip entry is still open');
      const start = offset;
      for (const e of entries) {
        const c = header(0x02014b50, 46 + e.name.length);
        c.view.setUint16(4, 20, true);
        c.view.setUint16(6, 20, true);
        c.view.setUint16(8, FLAGS, true);
        c.view.setUint16(10, 8, true);
        c.view.setUint16(12, DOS_TIME, true);
        c.view.setUint16(14, DOS_DATE, true);
        c.view.setUint32(16, e.crc, true);
        c.view.setUint32(20, e.compressed, true);
        c.view.setUint32(24, e.size, true);
        c.view.setUint16(28, e.name.length, true);
        c.view.setUint32(42, e.offset, true);
        c.bytes.set(e.name, 46);
        await emit(c.bytes);
      }
      const end = header(0x06054b50, 22);
      end.view.setUint16(8, entries.length, true);
      end.view.setUint16(10, entries.length, true);
      end.view.setUint32(12, offset - start, true);
      end.view.setUint32(16, start, true);
      await emit(end.bytes);
    },
  };
}
