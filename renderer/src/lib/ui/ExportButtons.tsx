import { useEffect, useState, useSyncExternalStore } from 'react';
import { exportFailure, exportJob, timeLeftLabel } from '../export-job';

/**
 * The two exports every list offers, side by side: CSV for other programs, Excel for people. While an
 * export is being written (in a worker) every export button waits, and the group that started it shows
 * its progress, time left and a Cancel button.
 */
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
  const job = useSyncExternalStore(exportJob.subscribe, exportJob.snapshot);
  // This group's identity for the failure words, which one group on screen shows (export-job.ts).
  const [group] = useState<object>(() => ({}));
  useEffect(() => exportFailure.mount(group), [group]);
  const failure = useSyncExternalStore(exportFailure.subscribe, () => exportFailure.messageFor(group));
  // The job this group started (it starts synchronously within onExport), so only its group shows it.
  const [startedId, setStartedId] = useState<number | undefined>(undefined);
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
          disabled={props.disabled || job !== null}
          onClick={() => {
            exportFailure.startedBy(group);
            props.onExport(b.kind);
            exportFailure.takeStarter(); // an onExport that did not start an export leaves no owner behind
            setStartedId(exportJob.snapshot()?.id);
          }}
          title={job ? 'An export is being written' : b.title}
          data-testid={props.testIds?.[b.kind]}
        >
          {b.label}
        </button>
      ))}
      {job && job.id === startedId && (
        <span className="export-progress small" role="status" data-testid="export-progress">
          Writing {job.kind === 'csv' ? 'CSV' : 'Excel'}… {Math.round(job.fraction * 100)}% ·{' '}
          {timeLeftLabel(job.msLeft)}{' '}
          <button type="button" className={props.buttonClassName} onClick={job.cancel}>
            Cancel
          </button>
        </span>
      )}
      {failure && !job && (
        <span className="export-failure small" role="alert" data-testid="export-failure">
          {failure}{' '}
          <button type="button" className={props.buttonClassName} onClick={() => exportFailure.report(null)}>
            Dismiss
          </button>
        </span>
      )}
    </span>
  );
}
