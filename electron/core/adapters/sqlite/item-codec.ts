/**
 * A report item as stored in recon_items.data (schema v10). Most items hold the service's whole record
 * (`transaction`) and, beside it, the service's side made of that record (`service`: serviceView of
 * it, with where and when it was fetched) — the same facts twice, a third of the text. Such an item is
 * stored without `service`, behind its source and fetch time:
 *
 *     S<source>\t<fetchedAt>\t<the item's JSON without service>
 *
 * and reading makes `service` again with the same function that made it. Any other item (and every
 * item stored before v10) is its plain JSON, which starts with `{`. The item read back equals the item
 * written (test/unit/adapters/item-codec.property.test.ts), so a re-opened run is the run as shown.
 */
import { serviceView, type ReconItem, type ServiceView } from '../../../../shared/recon/match';

const SOURCES: ReadonlySet<string> = new Set(['lookup', 'list', 'cache']);

/** Whether `a` and `b` have the same own properties with the same (primitive) values. */
function sameView(a: ServiceView, b: ServiceView): boolean {
  const ka = Object.keys(a) as Array<keyof ServiceView>;
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (a[k] !== b[k]) return false;
  return true;
}

export function encodeItem(item: ReconItem): string {
  const { service, transaction } = item;
  if (
    service &&
    transaction &&
    SOURCES.has(service.source) &&
    !service.fetchedAt.includes('\t') &&
    sameView(serviceView(transaction, service.source, service.fetchedAt), service)
  ) {
    const { service: _made, ...rest } = item;
    return `S${service.source}\t${service.fetchedAt}\t${JSON.stringify(rest)}`;
  }
  return JSON.stringify(item);
}

export function decodeItem(text: string): ReconItem {
  if (text.charCodeAt(0) !== 83 /* S */) return JSON.parse(text) as ReconItem;
  const a = text.indexOf('\t');
  const b = text.indexOf('\t', a + 1);
  const source = text.slice(1, a) as ServiceView['source'];
  const item = JSON.parse(text.slice(b + 1)) as ReconItem;
  item.service = serviceView(item.transaction!, source, text.slice(a + 1, b));
  return item;
}
