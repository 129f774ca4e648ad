import './reconciliation.css';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { chooseMapping, columnMappingSchema, type ColumnMapping } from '../../../../shared/recon/mapping';
import { useCache } from '../../db/owner';
import { useActiveProfile } from '../profiles/queries';
import { ImportStep } from './ImportStep';
import { MappingStep } from './MappingStep';
import type { LedgerSession } from './parse-client';
import { ProgressPanel } from './ProgressPanel';
import { ReportView } from './ReportView';
import { runsKeys } from './report-parts';
import { RunsList } from './RunsList';
import { TeamRunsList } from './TeamRunsList';
import { type ImportedLedger, useReconRun } from './use-recon-run';

const MAPPING_KEY = 'recon.mapping';

/**
 * The Reconciliation area: import → map columns, formats, period → run (in main) → report. Everything
 * on it belongs to the active profile: a switch starts the area over for the new one.
 */
export function ReconciliationScreen() {
  const { profile } = useActiveProfile();
  const activeId = profile?.id ?? null;
  return (
    <ProfileReconciliation
      key={activeId ?? 'none'}
      activeId={activeId}
      isDemo={profile?.environment === 'demo'}
      profileName={profile?.name ?? 'profile'}
    />
  );
}

interface Parsed {
  ledger: LedgerSession;
  label: string;
  mapping: ColumnMapping;
  /** The mapping is the one remembered for the profile (it still fits these headers). */
  remembered: boolean;
  /** The sheet shown (a workbook's other sheet starts the mapping step again). */
  sheet?: string;
}

function ProfileReconciliation({
  activeId,
  isDemo,
  profileName,
}: {
  activeId: string | null;
  isDemo: boolean;
  profileName: string;
}) {
  const cache = useCache();
  const client = useQueryClient();
  const [parsed, setParsedState] = useState<Parsed | null>(null);
  const [sheetError, setSheetError] = useState<string | null>(null);
  // The file lives in its worker: a file replaced or left, or the area closed, ends it.
  const open = useRef<LedgerSession | null>(null);
  const gone = useRef(false);
  const setParsed = (next: Parsed | null) => {
    if (open.current !== next?.ledger) open.current?.close();
    // A file read after the area closed (a profile switch while reading) is ended at once.
    if (gone.current) return next?.ledger.close();
    open.current = next?.ledger ?? null;
    setParsedState(next);
  };
  useEffect(() => {
    gone.current = false;
    return () => {
      gone.current = true;
      open.current?.close();
    };
  }, []);
  // Every call of the run names this profile; without one, nothing can be started.
  const recon = useReconRun(activeId ?? '');

  // A run that ended (or a new one) shows in the list of earlier runs.
  const ended = recon.run?.progress.phase === 'done' ? recon.run.runId : null;
  useEffect(() => {
    void client.invalidateQueries({ queryKey: runsKeys.all });
  }, [client, activeId, ended]);

  async function onParsed(ledger: LedgerSession, label: string) {
    // The mapping is remembered per profile; a remembered one is reused only if it fits these headers.
    const remembered = activeId
      ? columnMappingSchema.safeParse(await cache.setting(activeId, MAPPING_KEY))
      : undefined;
    const memory = remembered?.success ? remembered.data : undefined;
    const mapping = chooseMapping(ledger.file?.headers ?? [], memory);
    setParsed({
      ledger,
      label,
      mapping,
      remembered: mapping === memory,
      ...(ledger.file?.sheet !== undefined ? { sheet: ledger.file.sheet } : {}),
    });
  }

  async function onSheet(ledger: LedgerSession, label: string, name: string) {
    try {
      await ledger.sheet(name);
      await onParsed(ledger, label);
    } catch (e) {
      setSheetError(`Sheet “${name}” could not be read: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  async function onRun(ledger: ImportedLedger) {
    await cache.saveSetting(ledger.profileId, MAPPING_KEY, ledger.mapping);
    await recon.start(ledger);
  }

  const startOver = () => {
    recon.reset();
    setParsed(null);
  };

  let body;
  if (recon.report) {
    body = (
      <ReportView
        report={recon.report}
        onStartOver={startOver}
        onRecheck={() => void recon.recheck()}
        profileName={profileName}
      />
    );
  } else if (recon.run) {
    body = (
      <ProgressPanel
        label={recon.run.label}
        progress={recon.run.progress}
        busy={recon.busy}
        onPause={() => void recon.pause()}
        onResume={() => void recon.resume()}
        onCancel={() => void recon.cancel()}
      />
    );
  } else if (recon.busy) {
    body = (
      <p role="status" className="recon-card">
        {recon.busy}
      </p>
    );
  } else if (parsed && activeId) {
    body = (
      <MappingStep
        key={parsed.sheet ?? ''}
        ledger={parsed.ledger}
        label={parsed.label}
        profileId={activeId}
        initial={parsed.mapping}
        remembered={parsed.remembered}
        onSheet={(name) => {
          setSheetError(null);
          void onSheet(parsed.ledger, parsed.label, name);
        }}
        onBack={() => setParsed(null)}
        onRun={(l) => void onRun(l)}
      />
    );
  } else {
    body = (
      <>
        <ImportStep isDemo={isDemo} onParsed={(ledger, label) => void onParsed(ledger, label)} />
        {activeId && <TeamRunsList profileId={activeId} onOpen={(id) => void recon.reopen(id)} />}
        {activeId && <RunsList onOpen={(id) => void recon.reopen(id)} />}
      </>
    );
  }

  return (
    <div className="recon">
      {recon.error && (
        <p role="alert" className="recon-error">
          {recon.error}
        </p>
      )}
      {sheetError && parsed && (
        <p role="alert" className="recon-error">
          {sheetError}
        </p>
      )}
      {body}
    </div>
  );
}
