/**
 * Counts a CSV file's records and fields as text streams in, without keeping any of it: how a file too
 * big to reconcile (too many rows, a row of a million columns) is recognised before it is read whole
 * and parsed. It reads quotes the way papaparse (./parser.ts) does, so its counts are the parser's:
 * a quote opens a quoted field only as the field's first character; inside one, `""` is a quote, and a
 * quote closes the field only at the end or when a delimiter or line end follows (white space allowed
 * between; otherwise the quote is part of the cell and the field goes on); line ends
 * are LF, CRLF or a lone CR; a record whose cells are all blank is not a data row; the first record that
 * is not blank is the header.
 */
import type { CsvDelimiter } from './parser';

/** What the counter has seen so far. */
export interface RecordCount {
  /** Non-blank records after the header (the parser's `dataRows`). */
  dataRows: number;
  /** The line the last counted data row starts on (1-based). */
  lastRowLine: number;
  /** The most fields of any record (header included), and the line that record starts on. */
  widest: { fields: number; line: number };
}

const enum State {
  FieldStart,
  Unquoted,
  Quoted,
  /** A quote inside a quoted field: an escaped quote, the field's end, or (papaparse) a stray quote. */
  QuoteInQuoted,
  /** Spaces after such a quote: the field ends if a delimiter or line end follows. */
  SpaceAfterQuote,
}

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const BOM = 0xfeff;

/** What String.prototype.trim removes (WhiteSpace and LineTerminator): a cell of only these is blank. */
function isBlankChar(c: number): boolean {
  return (
    c === 0x20 ||
    (c >= 0x09 && c <= 0x0d) ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/**
 * A counter for text in chunks (any split, even inside a CRLF). `stop` is asked after every record:
 * once it says true, the rest is not read.
 */
export function createRecordCounter(
  delimiter: CsvDelimiter,
  stop: (count: RecordCount) => boolean = () => false,
) {
  const delim = delimiter.charCodeAt(0);
  const count: RecordCount = { dataRows: 0, lastRowLine: 0, widest: { fields: 0, line: 0 } };
  let state = State.FieldStart;
  let line = 1;
  let recordLine = 1;
  let fields = 1;
  let content = false;
  let header = false;
  let afterCr = false;
  let stopped = false;
  let any = false;
  let leadingBoms = 0;

  function endRecord() {
    if (fields > count.widest.fields) count.widest = { fields, line: recordLine };
    if (content) {
      if (header) {
        count.dataRows += 1;
        count.lastRowLine = recordLine;
      } else header = true;
    }
    fields = 1;
    content = false;
    state = State.FieldStart;
    if (stop(count)) stopped = true;
  }

  /** A line end outside quotes: the record ends. */
  function lineEnd() {
    endRecord();
    line += 1;
    recordLine = line;
  }

  return {
    count,
    /** True once `stop` said so: nothing more is read. */
    get stopped() {
      return stopped;
    },
    push(text: string): void {
      for (let i = 0; i < text.length && !stopped; i += 1) {
        const c = text.charCodeAt(i);
        // Byte-order marks opening the text are not part of the first cell: the parser drops one, and
        // papaparse (or the plain reader) one more.
        if (!any && c === BOM && leadingBoms < 2) {
          leadingBoms += 1;
          continue;
        }
        const lfOfCrlf = afterCr && c === LF;
        afterCr = c === CR;
        // The LF of a CRLF whose CR ended a record (or a line in a quoted cell) is part of that line end.
        if (lfOfCrlf && state !== State.Quoted) continue;
        any = true;
        switch (state) {
          case State.FieldStart:
          case State.Unquoted:
            if (c === delim) {
              fields += 1;
              state = State.FieldStart;
            } else if (c === LF || c === CR) lineEnd();
            else if (c === QUOTE && state === State.FieldStart) state = State.Quoted;
            else {
              state = State.Unquoted;
              if (!content && !isBlankChar(c)) content = true;
            }
            break;
          case State.Quoted:
            if (c === QUOTE) state = State.QuoteInQuoted;
            else {
              if (c === CR || (c === LF && !lfOfCrlf)) line += 1;
              if (!content && !isBlankChar(c)) content = true;
            }
            break;
          case State.QuoteInQuoted:
          case State.SpaceAfterQuote:
            if (c === delim) {
              fields += 1;
              state = State.FieldStart;
            } else if (c === LF || c === CR) lineEnd();
            else if (isBlankChar(c)) state = State.SpaceAfterQuote;
            else if (c === QUOTE && state === State.QuoteInQuoted) {
              // `""`: one quote in the cell.
              content = true;
              state = State.Quoted;
            } else {
              // Not a closing quote after all: the quote (and any spaces) belong to the cell.
              content = true;
              state = c === QUOTE ? State.QuoteInQuoted : State.Quoted;
            }
            break;
        }
      }
    },
    /** The end of the text: a last record without a line end counts too. */
    end(): RecordCount {
      // Spaces after a quote and then the end: the quote did not close the field, so it is in the cell.
      if (state === State.SpaceAfterQuote) content = true;
      if (!stopped && any && (content || fields > 1 || state !== State.FieldStart)) endRecord();
      return count;
    },
  };
}
