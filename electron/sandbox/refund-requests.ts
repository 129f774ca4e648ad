/**
 * The refund requests as the service handled them, in memory only: which payment each named, its
 * reference and amount as sent, when it arrived and when it was answered, and the answer. Tests count
 * from it what only the service can see — two refund requests for one payment in flight at once, a
 * refund refused because it asked for more than the payment had left — instead of trusting the client.
 */
import { performance } from 'node:perf_hooks';

export interface RefundRequestEntry {
  /** The payment as the request named it: its transactionNo, else `reference:<reference>`. */
  payment: string;
  refundReference?: string;
  /** As sent (wire decimal). */
  refundAmount?: string;
  /** Monotonic milliseconds (performance.now of the sandbox's process): only for ordering and overlaps. */
  arrivedAt: number;
  /** Absent while the request is still being handled. */
  answeredAt?: number;
  /** ret_code, `+dropped`/`+malformed` when the answer was cut on purpose; `http-503` for that fault. */
  outcome?: string;
  /** Refused for asking more than the payment had left (over the remainder, or nothing left). */
  overRemainder?: boolean;
}

export interface RefundRequestLog {
  /** A request has arrived (after any hold): its entry, completed by the server as it answers. */
  arrived(params: Readonly<Record<string, string>>): RefundRequestEntry;
  entries(): RefundRequestEntry[];
}

export function createRefundRequestLog(): RefundRequestLog {
  const entries: RefundRequestEntry[] = [];
  return {
    arrived(params) {
      const e: RefundRequestEntry = {
        payment: params['transactionNo'] ?? `reference:${params['reference'] ?? ''}`,
        ...(params['refundReference'] ? { refundReference: params['refundReference'] } : {}),
        ...(params['refundAmount'] ? { refundAmount: params['refundAmount'] } : {}),
        arrivedAt: performance.now(),
      };
      entries.push(e);
      return e;
    },
    entries: () => entries.map((e) => ({ ...e })),
  };
}

/**
 * Pairs of requests for the same payment that were at the service at the same time (the later one
 * arrived before the earlier one was answered; one never answered overlaps everything after it).
 */
export function overlappingRefundRequests(
  entries: readonly RefundRequestEntry[],
): Array<[RefundRequestEntry, RefundRequestEntry]> {
  const byPayment = new Map<string, RefundRequestEntry[]>();
  for (const e of entries) byPayment.set(e.payment, [...(byPayment.get(e.payment) ?? []), e]);
  const out: Array<[RefundRequestEntry, RefundRequestEntry]> = [];
  for (const list of byPayment.values()) {
    const sorted = [...list].sort((a, b) => a.arrivedAt - b.arrivedAt);
    sorted.forEach((a, i) => {
      for (const b of sorted.slice(i + 1)) if (b.arrivedAt < (a.answeredAt ?? Infinity)) out.push([a, b]);
    });
  }
  return out;
}
