/** The two exports every list offers, side by side: CSV for other programs, Excel for people. */
export function ExportButtons(props: {
  onExport(kind: 'csv' | 'xlsx'): void;
  disabled?: boolean;
  /** Button words; "Export CSV" / "Export Excel" unless a screen has several exports. */
  csvLabel?: string;
  xlsxLabel?: string;
  /** The rows concerned, for the tooltips ("the rows shown"). */
  what?: string;
  className?: string;
  buttonClassName?: string;
  testIds?: { csv: string; xlsx: string };
}) {
  const what = props.what ?? 'The rows shown';
  const buttons = [
    { kind: 'csv', label: props.csvLabel ?? 'Export CSV', title: `${what} — plain CSV for other programs` },
    { kind: 'xlsx', label: props.xlsxLabel ?? 'Export Excel', title: `${what} — an Excel workbook` },
  ] as const;
  return (
    <span className={props.className ?? 'export-buttons'}>
      {buttons.map((b) => (
        <button
          key={b.kind}
          type="button"
          className={props.buttonClassName}
          disabled={props.disabled}
          onClick={() => props.onExport(b.kind)}
          title={b.title}
          data-testid={props.testIds?.[b.kind]}
        >
          {b.label}
        </button>
      ))}
    </span>
  );
}
