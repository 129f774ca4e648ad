import './reconciliation.css';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { ParsedCsv } from '../../../../shared/csv/parser';
import { chooseMapping, columnMappingSchema, type ColumnMapping } from '../../../../shared/recon/mapping';
import { useDb } from '../../db/context';
import { createMetaRepo } from '../../db/meta-repo';
import type { ReconRunRecord } from '../../db/schema';
import { unwrap, useBridge } from '../../lib/bridge';
import { useFormat } from '../preferences/use-prefs';
import { ImportStep } from './ImportStep';
import { MappingStep } from './MappingStep';
import { ProgressPanel } from './ProgressPanel';
import { ReportView } from './ReportView';
import { type ImportedLedger, useReconRun } from './use-recon-run';

const MAPPING_KEY = 'recon.mapping';

/** The Reconciliation area: import → map columns → query (in main) → report. */
export function ReconciliationScreen() {
  const bridge = useBridge();
  const db = useDb();
  const profiles = useQuery({
    queryKey: ['reconciliation', 'profiles'],
    queryFn: () => unwrap(bridge['profiles.list']()),
  });
  const activeId = profiles.data?.activeProfileId ?? null;
  const isDemo = profiles.data?.profiles.some((p) => p.id === activeId && p.environment === 'demo') ?? false;
  const [parsed, setParsed] = useState<{ csv: ParsedCsv; label: string; mapping: ColumnMapping } | null>(
    null,
  );
  const [earlier, setEarlier] = useState<ReconRunRecord[]>([]);
  const recon = useReconRun();
  const f = useFormat();

  useEffect(() => {
    if (!activeId) return;
    void db.reconRuns
      .where('[profileId+createdAt]')
      .between([activeId, ''], [activeId, '\uffff'])
      .reverse()
      .limit(5)
      .toArray()
      .then(setEarlier);
  }, [db, activeId, recon.run]);

  async function onParsed(csv: ParsedCsv, label: string) {
    // The mapping is remembered per profile; a remembered one is reused only if it fits these headers.
    const remembered = activeId
      ? columnMappingSchema.safeParse(await createMetaRepo(db).get(activeId, MAPPING_KEY))
      : undefined;
    setParsed({
      csv,
      label,
      mapping: chooseMapping(csv.headers, remembered?.success ? remembered.data : undefined),
    });
  }

  async function onRun(ledger: ImportedLedger) {
    if (activeId) await createMetaRepo(db).set(activeId, MAPPING_KEY, ledger.mapping);
    await recon.start(ledger);
  }

  const startOver = () => {
    recon.reset();
    setParsed(null);
  };

  let body;
  if (recon.run && recon.report) {
    body = (
      <ReportView
        label={recon.run.label}
        report={recon.report}
        problems={recon.run.problems}
        onStartOver={startOver}
        profileName={profiles.data?.profiles.find((p) => p.id === activeId)?.name ?? 'profile'}
      />
    );
  } else if (recon.run && recon.progress) {
    body = (
      <ProgressPanel
        label={recon.run.label}
        progress={recon.progress}
        onPause={() => void recon.pause()}
        onResume={() => void recon.resume()}
        onCancel={() => void recon.cancel()}
      />
    );
  } else if (parsed) {
    body = (
      <MappingStep
        parsed={parsed.csv}
        label={parsed.label}
        initial={parsed.mapping}
        onBack={() => setParsed(null)}
        onRun={(l) => void onRun(l)}
      />
    );
  } else {
    body = (
      <>
        <ImportStep isDemo={isDemo} onParsed={(csv, label) => void onParsed(csv, label)} />
        {earlier.length > 0 && (
          <section className="recon-card" aria-labelledby="recon-earlier">
            <h2 id="recon-earlier">Earlier runs</h2>
            <ul className="recon-earlier">
              {earlier.map((r) => (
                <li key={r.jobId}>
                  <button type="button" className="link" onClick={() => void recon.reopen(r.jobId)}>
                    {r.label}
                  </button>{' '}
                  <span className="muted small">
                    {f.dateTime(r.createdAt)} ({f.zoneLabel}) · {f.count(r.rows.length)} rows
                  </span>
                </li>
              ))}
            </ul>
          </section>
        )}
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
      {body}
    </div>
  );
}
