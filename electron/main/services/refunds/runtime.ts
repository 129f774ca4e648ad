import { userInfo } from 'node:os';
import { join } from 'node:path';
import { AppError } from '../../../../shared/domain/errors';
import { newSortableId } from '../../../../shared/domain/ids';
import { openJsonlFile } from '../../adapters/jsonl-file';
import type { EventBus } from '../event-bus';
import type { Clock, Logger } from '../ports';
import type { ProfilesRuntime } from '../profiles/runtime';
import { type AuditEntry, createAuditLog } from './audit';
import type { IntentEvent } from './intent';
import { createIntentJournal } from './journal';
import { createRefundPoller } from './poller';
import { type AccountRef, createRefundService, type RefundContext } from './service';

/** The OS account name, used as the operator when a profile names none. */
function osUser(): string {
  try {
    return userInfo().username || 'unknown operator';
  } catch {
    return 'unknown operator';
  }
}

/**
 * Wires the refund service to its files (journal, audit log in the data directory), the active profile,
 * the IPN confirmations (hints) and the poller; resumes every non-final intent on start.
 */
export function createRefundsRuntime(deps: {
  dataDir: string;
  clock: Clock;
  log: Logger;
  events: EventBus;
  profiles: ProfilesRuntime;
}) {
  const journalFile = openJsonlFile<IntentEvent>(join(deps.dataDir, 'refund-journal.jsonl'));
  const auditFile = openJsonlFile<AuditEntry>(join(deps.dataDir, 'audit.jsonl'));

  const context = (): RefundContext => {
    const p = deps.profiles.profiles.active();
    if (!p)
      throw new AppError('invalid_input', 'No merchant profile is active. Add or choose one in Settings.');
    const ipnUrl = deps.profiles.ipnUrlFor(p.id);
    return {
      profileId: p.id,
      profileName: p.name,
      environment: p.environment,
      merchantNo: p.merchantNo,
      storeNo: p.storeNo,
      operator: p.operatorName ?? osUser(),
      guardrails: p.guardrails ?? { limits: [] },
      ...(ipnUrl ? { ipnUrl } : {}),
    };
  };

  const profileFor = async (a: AccountRef): Promise<string> => {
    const { profiles } = await deps.profiles.profiles.list();
    if (profiles.some((p) => p.id === a.profileId)) return a.profileId;
    const same = profiles.find((p) => p.merchantNo === a.merchantNo && p.storeNo === a.storeNo);
    if (same) return same.id;
    throw new AppError(
      'not_found',
      `No profile for merchant ${a.merchantNo}, store ${a.storeNo} exists any more. Add one in Settings to check this refund.`,
    );
  };

  const service = createRefundService({
    // An intent is followed up with its own account's credentials: its profile, or — if that was deleted or
    // the intent came from the CLI — any profile for the same merchant and store.
    gatewayFor: (account) => ({
      queryTransaction: async (key, o) =>
        deps.profiles.gatewayFor(await profileFor(account)).queryTransaction(key, o),
      refund: async (input, o) => deps.profiles.gatewayFor(await profileFor(account)).refund(input, o),
    }),
    journal: createIntentJournal(journalFile, deps.log),
    audit: createAuditLog(auditFile),
    clock: deps.clock,
    log: deps.log,
    context,
    newId: () => newSortableId('RD', deps.clock.now()),
    onChange: (intent) => {
      deps.events.emit('refunds.updated', intent);
      if (intent.state === 'accepted') poller.kick();
    },
  });
  const poller = createRefundPoller(service, deps.log);

  // An IPN (confirmed by a fresh query) about a refund is a hint to follow that payment's refunds now.
  const unsubscribe = deps.events.subscribe((event, payload) => {
    if (event !== 'transactions.updated') return;
    const p = payload as { refundTransactionNo?: string; transaction: { transactionNo: string } };
    if (p.refundTransactionNo) void service.track(p.transaction.transactionNo).catch(() => undefined);
  });

  // Resume in the background: start-up must not wait on the network.
  void service
    .resumeAll()
    .then((resumed) => {
      if (resumed.length > 0) deps.log.info('refund.resumed', { count: resumed.length });
      poller.kick();
    })
    .catch((e: unknown) =>
      deps.log.error('refund.resume_failed', { error: e instanceof Error ? e.message : String(e) }),
    );

  return {
    service,
    describeActive: () => {
      const c = context();
      return { profileId: c.profileId, profileName: c.profileName, operator: c.operator };
    },
    close(): void {
      unsubscribe();
      poller.stop();
      journalFile.close();
      auditFile.close();
    },
  };
}
