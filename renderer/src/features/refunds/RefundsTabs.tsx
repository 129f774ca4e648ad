import type { ReactNode } from 'react';

/** One view of the Refunds area: its id, and its tab's words (a count may follow them). */
export interface RefundsTab<T extends string> {
  id: T;
  label: ReactNode;
}

/**
 * The Refunds area's views as tabs (the Payments area's look): the refund record, and — on a desk of a
 * team database — the requests awaiting approval. The panel below is `rd-tabpanel`.
 */
export function RefundsTabs<T extends string>({
  tabs,
  tab,
  onTab,
}: {
  tabs: ReadonlyArray<RefundsTab<T>>;
  tab: T;
  onTab: (t: T) => void;
}) {
  return (
    <div className="rd-tabs" role="tablist" aria-label="Refunds">
      {tabs.map((t) => (
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
