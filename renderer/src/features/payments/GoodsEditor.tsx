import type { GoodsDraft } from './goods';

/** The goods lines of a checkout (the service's goodsInfo): a name and a quantity per line. */
export function GoodsEditor(props: {
  rows: GoodsDraft[];
  error?: string | undefined;
  onChange: (rows: GoodsDraft[]) => void;
}) {
  const set = (i: number, patch: Partial<GoodsDraft>) =>
    props.onChange(props.rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset className="pm-goods">
      <legend>Items (optional)</legend>
      {props.rows.map((r, i) => (
        <div className="pm-goods-row" key={i}>
          <input
            aria-label={`Item ${i + 1} name`}
            value={r.name}
            maxLength={100}
            placeholder="e.g. Blue mug"
            onChange={(e) => set(i, { name: e.target.value })}
          />
          <input
            aria-label={`Item ${i + 1} quantity`}
            className="num pm-qty"
            inputMode="numeric"
            value={r.quantity}
            onChange={(e) => set(i, { quantity: e.target.value })}
          />
          <button
            type="button"
            aria-label={`Remove item ${i + 1}`}
            onClick={() => props.onChange(props.rows.filter((_, j) => j !== i))}
          >
            Remove
          </button>
        </div>
      ))}
      {props.rows.length < 20 && (
        <button type="button" onClick={() => props.onChange([...props.rows, { name: '', quantity: '1' }])}>
          Add item
        </button>
      )}
      {props.error && <p className="rd-error small">{props.error}</p>}
    </fieldset>
  );
}
