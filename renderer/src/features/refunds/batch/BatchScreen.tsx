import '../../reconciliation/reconciliation.css';
import './batch.css';
import { useEffect, useRef, useState } from 'react';
import {
  batchMappingIssues,
  batchMappingSchema,
  guessBatchMapping,
  type BatchMapping,
} from '../../../../../shared/batch/mapping';
import { useCache } from '../../../db/owner';
import { errorOf, unwrap, useBridge } from '../../../lib/bridge';
import type { ProfileView } from '../../profiles/queries';
import type { LedgerFileSummary } from '../../reconciliation/ledger-protocol';
import { BatchConfirm } from './BatchConfirm';
import { BatchDryRunView, type DryRun } from './BatchDryRunView';
import { BatchFileStep, type OpenedBatchFile } from './BatchFileStep';
import { BatchMappingStep, type DecimalChoice } from './BatchMappingStep';
import { BatchProgress } from './BatchProgress';
import { BatchReportView } from './BatchReportView';
import { PastBatches } from './PastBatches';
import { base64Of } from './file-bytes';
import { useBatchRun } from './use-batch-run';

const MAPPING_KEY = 'refunds.batch.mapping';

interface Opened extends OpenedBatchFile {
  summary: LedgerFileSummary;
  mapping: BatchMapping;
  remembered: boolean;
  /** Base64 of the bytes, made once (the dry run, again, and the start all send it). */
  base64?: string;
}

/**
 * Refunds → Batch: open a refund list → match its columns → dry run (main) → one confirmation →
 * execution with progress, pause, resume, cancel (main) → the report with CSV and Excel. Everything on
 * it belongs to the profile it was opened for; a profile switch starts it over (keyed by the caller).
 */
export function BatchScreen({ profile }: { profile: ProfileView }) {
  const bridge = useBridge();
  const cache = useCache();
  const run = useBatchRun(profile.id);
  const [opened, setOpenedState] = useState<Opened | null>(null);
  const [dry, setDry] = useState<DryRun | null>(null);
  const [choice, setChoice] = useState<{ mapping: BatchMapping; decimal: DecimalChoice } | null>(null);
  const [checking, setChecking] = useState(false);
  const [dryError, setDryError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  // The file lives in its worker while it is being mapped: replaced, left or the screen closed ends it.
  const session = useRef<Opened['session'] | null>(null);
  const setOpened = (next: Opened | null) => {
    if (session.current && session.current !== next?.session) session.current.close();
    session.current = next?.session ?? null;
    setOpenedState(next);
  };
  useEffect(() => () => session.current?.close(), []);

  async function mappingFor(summary: LedgerFileSummary) {
    const stored = batchMappingSchema.safeParse(
      await cache.setting(profile.id, MAPPING_KEY).catch(() => null),
    );
    if (stored.success && batchMappingIssues(stored.data, summary.headers).length === 0)
      return { mapping: stored.data, remembered: true };
    return { mapping: guessBatchMapping(summary.headers), remembered: false };
  }

  async function onOpened(file: OpenedBatchFile) {
    const summary = file.session.file!;
    setDry(null);
    setDryError(null);
    setOpened({ ...file, summary, ...(await mappingFor(summary)) });
  }

  async function onSheet(name: string) {
    if (!opened) return;
    try {
      const summary = await opened.session.sheet(name);
      setDryError(null);
      setOpened({ ...opened, summary, ...(await mappingFor(summary)) });
    } catch (e) {
      setDryError(`Sheet “${name}” could not be read: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  async function fileOf(o: Opened) {
    o.base64 ??= await base64Of(o.bytes);
    return { name: o.label, base64: o.base64 };
  }

  async function dryRun(mapping: BatchMapping, decimal: DecimalChoice) {
    if (!opened) return;
    setChecking(true);
    setDryError(null);
    setChoice({ mapping, decimal });
    try {
      const answer = await unwrap(
        bridge['refunds.batchDryRun']({
          profileId: profile.id,
          file: await fileOf(opened),
          mapping,
          ...(opened.summary.kind === 'xlsx' && opened.summary.sheet !== undefined
            ? { sheet: opened.summary.sheet }
            : {}),
          ...(decimal ? { decimal } : {}),
        }),
      );
      await cache.saveSetting(profile.id, MAPPING_KEY, mapping).catch(() => undefined);
      setDry(answer);
    } catch (e) {
      setDryError(`${opened.label} was not checked: ${errorOf(e).message}`);
      setDry(null);
    } finally {
      setChecking(false);
    }
  }

  async function start(typedTotals: string[] | undefined) {
    if (!opened || !dry) return;
    // The reading the dry run used (mapping, sheet, decimal): main reads the file again the same way.
    const ok = await run.start({
      file: await fileOf(opened),
      mapping: dry.mapping,
      ...(dry.file.sheet !== undefined ? { sheet: dry.file.sheet } : {}),
      decimal: dry.file.decimal,
      ...(typedTotals ? { typedTotals } : {}),
    });
    if (ok) setConfirming(false);
  }

  const startOver = () => {
    run.reset();
    setDry(null);
    setChoice(null);
    setDryError(null);
    setConfirming(false);
    setOpened(null);
  };

  let body;
  if (run.report) body = <BatchReportView report={run.report} onNew={startOver} />;
  else if (run.status && !confirming)
    body = (
      <BatchProgress
        status={run.status}
        busy={run.busy}
        error={run.error}
        onPause={() => void run.pause()}
        onResume={() => void run.resume()}
        onCancel={() => void run.cancel()}
      />
    );
  else if (dry && opened)
    body = (
      <BatchDryRunView
        dry={dry}
        busy={checking}
        onConfirm={() => setConfirming(true)}
        onAgain={() => choice && void dryRun(choice.mapping, choice.decimal)}
        onBack={startOver}
      />
    );
  else if (opened)
    body = (
      <BatchMappingStep
        key={`${opened.summary.sheet ?? ''}|${opened.summary.headers.join('|')}`}
        label={opened.label}
        file={opened.summary}
        initial={opened.mapping}
        remembered={opened.remembered}
        busy={checking}
        error={dryError}
        onSheet={(name) => void onSheet(name)}
        onBack={startOver}
        onDryRun={(m, d) => void dryRun(m, d)}
      />
    );
  else
    body = (
      <>
        <BatchFileStep onOpened={(f) => void onOpened(f)} />
        <PastBatches profileId={profile.id} onOpen={(id) => void run.open(id)} />
      </>
    );

  return (
    <div className="recon rb-batch" data-testid="batch-screen">
      {body}
      {dry && confirming && (
        <BatchConfirm
          fileName={dry.file.name}
          rows={dry.counts.will_refund ?? 0}
          totals={dry.totals}
          profileName={dry.profileName}
          moneyMode={dry.moneyMode}
          busy={run.busy !== null}
          error={run.error}
          onConfirm={(typed) => void start(typed)}
          onCancel={() => setConfirming(false)}
        />
      )}
    </div>
  );
}
