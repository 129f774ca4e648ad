export type RefundsTab = 'record' | 'batch';

const TABS: ReadonlyArray<{ id: RefundsTab; label: string }> = [
  { id: 'record', label: 'Refund record' },
  { id: 'batch', label: 'Batch' },
];

/** Refunds' two views: the record of every refund, and refunding a list of payments at once. */
export function RefundsTabs({ tab, onTab }: { tab: RefundsTab; onTab: (t: RefundsTab) => void }) {
  return (
    <div className="rd-tabs" role="tablist" aria-label="Refunds">
      {TABS.map((t) => (
        <button
          key={t.id}
          type="button"
          role="tab"
          id={`rd-tab-${t.id}`}
          aria-selected={t.id === tab}
          aria-controls="rd-tabpanel"
          className={t.id === tab ? 'rd-tab rd-tab-on' : 'rd-tab'}
          onClick={() => onTab(t.id)}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
