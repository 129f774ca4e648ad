import { useEffect, useId, useRef } from 'react';
import type { BatchTotal } from '../../../../../shared/batch/result';
import type { MoneyMode } from '../../../../../shared/domain/profile';
import { Dialog } from '../../../lib/ui/Dialog';
import { useFormat } from '../../preferences/use-prefs';
import { MoneyModeBadge } from '../../profiles/MoneyModeBadge';
import { TotalsList } from './totals';
import { TypedTotalsBox } from './TypedTotals';
import { useTypedTotals } from './use-typed-totals';

interface Props {
  fileName: string;
  rows: number;
  totals: readonly BatchTotal[];
  profileName: string;
  moneyMode: MoneyMode;
  busy: boolean;
  error: string | null;
  onConfirm: (typedTotals: string[] | undefined) => void;
  onCancel: () => void;
}

/**
 * The one confirmation of a batch: how many rows, what moves per currency, the profile and its money
 * mode. On a live-money profile the person types each currency's total (main checks it again, by the
 * same rule, before anything is sent).
 */
export function BatchConfirm(props: Props) {
  const uid = useId();
  const f = useFormat();
  const live = props.moneyMode === 'live';
  const typing = useTypedTotals(props.totals, live);
  const { ok, typedTotals } = typing;
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <Dialog
      titleId={`${uid}-t`}
      title={`Refund ${f.count(props.rows)} ${props.rows === 1 ? 'row' : 'rows'}?`}
      onClose={props.busy ? undefined : props.onCancel}
      tone={live ? 'production' : undefined}
      testId="batch-confirm"
    >
      <div className="dlg-body">
        <dl className="rd-facts rd-facts-confirm">
          <div>
            <dt>File</dt>
            <dd>{props.fileName}</dd>
          </div>
          <div>
            <dt>Rows to refund</dt>
            <dd className="strong" data-testid="batch-confirm-rows">
              {f.count(props.rows)}
            </dd>
          </div>
          <div>
            <dt>Total</dt>
            <dd>
              <TotalsList totals={props.totals} testId="batch-confirm-totals" block />
            </dd>
          </div>
          <div>
            <dt>Profile</dt>
            <dd>
              {props.profileName} <MoneyModeBadge mode={props.moneyMode} testId="batch-confirm-mode" />
            </dd>
          </div>
        </dl>
        <p className="small muted">
          Each row is checked again just before it is sent; a row that changed since the dry run is refused
          with its reason, never sent. You can pause or cancel while it runs.
        </p>
        {live && (
          <TypedTotalsBox
            testId="batch-typed-totals"
            lead={{ warning: 'This profile moves real money.', ask: 'Type the total to confirm.' }}
            totals={props.totals}
            typing={typing}
          />
        )}
        {props.error && (
          <p role="alert" className="rd-error" data-testid="batch-start-error">
            {props.error}
          </p>
        )}
        <div className="dlg-actions">
          <button type="button" ref={cancel} onClick={props.onCancel} disabled={props.busy}>
            Cancel
          </button>
          <button
            type="button"
            className={live ? 'danger' : 'primary'}
            disabled={!ok || props.busy}
            aria-busy={props.busy}
            onClick={() => props.onConfirm(live ? typedTotals : undefined)}
          >
            {props.busy ? 'Starting…' : `Refund ${f.count(props.rows)} ${props.rows === 1 ? 'row' : 'rows'}`}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
